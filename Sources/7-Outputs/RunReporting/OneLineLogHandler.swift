import Basics
import Foundation
import Logging

/// `--verbose`'s log lines on standard error, one line each whatever they hold: a message or
/// metadata value may quote a document (a failure's words), so control characters are escaped
/// and known secrets redacted as on every other line Commissary prints.
public struct OneLineLogHandler: LogHandler {
    public let label: String
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]

    public init(label: String) {
        self.label = label
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let fields = metadata.merging(event.metadata ?? [:]) { _, given in given }
            .sorted { $0.key < $1.key }
            .map { "\($0.key)=\($0.value)" }
        let line = "\(ISOTimestamp.string(from: Date())) \(event.level) \(label): "
            + (fields.isEmpty ? "" : fields.joined(separator: " ") + " ") + "\(event.message)"
        CheckedOutput.standardError.write(Redaction.apply(TerminalText.oneLine(line)) + "\n")
    }
}
