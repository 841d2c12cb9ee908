import ArgumentParser
import Foundation

/// Prints one line on standard error and exits with `code`: every error type of the libraries
/// describes itself in one line that names the file, URL or row.
func fail(_ error: any Error, code: Int32 = 1) -> ExitCode {
    let line = "\(error)".split(whereSeparator: \.isNewline).joined(separator: " ")
    FileHandle.standardError.write(Data("error: \(line)\n".utf8))
    return ExitCode(code)
}

/// Whether standard output is a terminal (progress and tables) or a pipe (JSON lines).
func standardOutputIsTerminal() -> Bool {
    isatty(STDOUT_FILENO) == 1
}
