import ArgumentParser
import FoodModel
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

/// Today in the machine's time zone: the dining hall's "today" when the job runs where it is.
func localToday() -> ServiceDate {
    let parts = Calendar(identifier: .gregorian).dateComponents(in: TimeZone.current, from: Date())
    return ServiceDate(year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1)
        ?? ServiceDate(daysSinceEpoch: 0)
}
