import Basics
import Crypto
import Fetching
import FoodModel
import Foundation

/// What a snapshot is a function of, as one sha256: the code that built it, the pipeline's
/// definition, and the bytes of every document each partition read. A run whose fingerprint
/// equals the latest snapshot's would publish the same tables again, so it publishes nothing.
///
/// Times are left out on purpose (when a page was fetched, when the run started): they change
/// on every run and say nothing about the content.
struct InputFingerprint {
    /// One partition's share: its documents, in any order.
    struct Partition {
        var source: String
        var key: String
        var documents: [SourceDocument]
        var failed: Bool
    }

    /// The text hashed is the code, the definition, then each partition with its documents'
    /// lines sorted; it is hashed as partitions come, so a run keeps no list of them for this.
    private var hasher = SHA256()

    init(spec: PipelineSpec) {
        hash("code \(CommissaryVersion.current) \(Self.executableIdentity)\n")
        hash(spec.definitionText)
    }

    mutating func add(_ partition: Partition) {
        hash("partition \(partition.source) \(partition.key)\(partition.failed ? " failed" : "")\n")
        let documents = Set(partition.documents.map { "\($0.url) \($0.status) \($0.sha256)" }).sorted()
        for document in documents { hash("  \(document)\n") }
    }

    /// Lower-case hex, as `_meta.inputs_sha256` holds it.
    var sha256: String {
        lowercaseHex(hasher.finalize())
    }

    static func of(spec: PipelineSpec, partitions: [Partition]) -> String {
        var fingerprint = InputFingerprint(spec: spec)
        for partition in partitions { fingerprint.add(partition) }
        return fingerprint.sha256
    }

    private mutating func hash(_ text: String) {
        hasher.update(data: Data(text.utf8))
    }

    /// The running executable's GNU build ID (`ELFBuildID`): the same code gives the same ID,
    /// however often it is relinked. A binary without one is identified by its path, size and
    /// modification time instead, which errs only towards publishing again.
    static let executableIdentity: String = {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        if let id = ELFBuildID.read(executable) { return "build-id \(id)" }
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: executable.path),
              let size = attributes[.size] as? Int,
              let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970
        else { return "unknown executable \(UUID())" }
        return "\(executable.path) \(size) \(modified)"
    }()
}

extension PipelineSpec {
    /// Every setting that shapes the published tables, one per line, in a stable order (the
    /// standard's values sorted; plan and term files by the sha256 of their bytes).
    var definitionText: String {
        var lines = ["pipeline \(name)", "licence \(licence)"]
        lines += sources.map { "source \($0.definition)" }
        lines.append("checks \(String(reflecting: checks))")
        if let standard = dailyValues {
            lines.append("standard \(standard.name)")
            lines += standard.values.sorted { $0.key < $1.key }
                .map { "  \($0.key.rawValue) \($0.value.amount) \($0.value.unit)" }
        }
        if let places {
            let digest = (try? Data(contentsOf: places.file)).map(sha256Hex) ?? "unreadable \(UUID())"
            lines.append("places \(places.file.path) \(digest)")
        }
        if let swipes {
            for file in [swipes.plansFile] + swipes.termFiles {
                let digest = (try? Data(contentsOf: file)).map(sha256Hex) ?? "unreadable \(UUID())"
                lines.append("swipes \(file.path) \(digest)")
            }
        }
        return lines.map { $0 + "\n" }.joined()
    }
}
