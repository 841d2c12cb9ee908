import Foundation

/// What went wrong in the words of the operating system ("No such file or directory"), for a
/// Foundation file error whose own description on Linux says only "The operation could not be
/// completed" or names an `NSCocoaErrorDomain` code.
public enum SystemMessage {
    public static func describe(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError,
           underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if nsError.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(nsError.code))) }
        guard nsError.domain == NSCocoaErrorDomain else { return "\(error)" }
        switch CocoaError.Code(rawValue: nsError.code) {
        case .fileNoSuchFile, .fileReadNoSuchFile: return String(cString: strerror(ENOENT))
        case .fileReadNoPermission, .fileWriteNoPermission: return String(cString: strerror(EACCES))
        case .fileWriteOutOfSpace: return String(cString: strerror(ENOSPC))
        case .fileWriteVolumeReadOnly: return String(cString: strerror(EROFS))
        case .fileWriteFileExists: return String(cString: strerror(EEXIST))
        case .fileReadCorruptFile: return "the file is damaged or not in the expected format"
        case .fileReadInapplicableStringEncoding: return "the file is not valid text in the expected encoding"
        default: return "file operation failed (code \(nsError.code))"
        }
    }
}

/// A database library's words for a value it could not decode (GRDB's `RowDecodingError`), on
/// one line and without the row it quotes after them, which can hold a page of text: what could
/// not be decoded, from what value, in which column; a value quoted at length is cut short.
public func valueDecodingWords(_ error: any Error) -> String {
    let words = "\(error)"
    let cut = words.range(of: ", row: ")?.lowerBound ?? words.endIndex
    let line = words[..<cut].split(whereSeparator: \.isNewline).joined(separator: " ")
    return line.count > 240 ? String(line.prefix(240)) + "…" : line
}
