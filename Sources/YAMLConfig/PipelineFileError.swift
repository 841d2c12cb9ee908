import Basics

/// A pipeline file that cannot be used, located to the key and line: one line a user can act on.
public struct PipelineFileError: CommissaryFailure, Hashable, Sendable {
    public var file: String
    public var line: Int?
    public var column: Int?
    /// The key path inside the file (`sources[0].dates.from`), empty for the whole file.
    public var key: String
    public var message: String

    public init(file: String, line: Int?, column: Int?, key: String, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.key = key
        self.message = message
    }

    public var code: FailureCode { .badInput }

    /// `file:line:col`, as far as known.
    public var place: String? {
        var place = file
        if let line { place += ":\(line)" }
        if let column { place += ":\(column)" }
        return place
    }

    public var description: String {
        var place = file
        if let line { place += ":\(line)" }
        if let column { place += ":\(column)" }
        return key.isEmpty ? "\(place): \(message)" : "\(place): \(key): \(message)"
    }
}
