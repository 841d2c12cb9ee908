import Basics

extension Failure {
    /// A pipeline file (or calendar, meal plan, standard) that cannot be used, located to the
    /// key and line: `file:line:col: key.path: message`, one line a user can act on.
    /// `key` is the key path inside the file (`sources[0].dates.from`), empty for the whole file.
    public static func pipelineFile(_ message: String, file: String, line: Int? = nil, column: Int? = nil,
                                    key: String = "", cause: (any Error)? = nil) -> Failure {
        Failure(.pipelineFile, message, at: Place(file, line: line, column: column, key: key), cause: cause)
    }
}
