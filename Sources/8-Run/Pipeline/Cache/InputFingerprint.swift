import Basics
import Crypto
import Fetching
import FoodModel
import Foundation

/// What a snapshot is a function of, as one sha256: the code that built it, the pipeline's
/// definition, its partitions, and the bytes of every document they read. A run whose
/// fingerprint equals the latest snapshot's would publish the same tables again, so it
/// publishes nothing.
///
/// Times are left out on purpose (when a page was fetched, when the run started): they change
/// on every run and say nothing about the content. So is which partition read a document: a
/// food page is read by whichever day claims it first, which depends on timing, and the tables
/// do not depend on who read it.
struct InputFingerprint {
    /// One partition's share: its documents, in any order.
    struct Partition {
        var source: String
        var key: String
        var documents: [SourceDocument]
        var failed: Bool
    }

    private var hasher = SHA256()
    /// The partitions and the documents, each as a multiset of sha256 digests summed modulo
    /// 2^256: the sum is the same in whatever order they come, and a run keeps no list of them.
    private var partitions = DigestSum()
    private var documents = DigestSum()

    init(spec: PipelineSpec) {
        hash("code \(CommissaryVersion.build)\n")
        hash(spec.definitionText)
    }

    mutating func add(_ partition: Partition) {
        partitions.add("partition \(partition.source) \(partition.key)\(partition.failed ? " failed" : "")")
        add(documents: partition.documents, of: partition.source)
    }

    /// Documents a partition read, added on their own: those a partition read after it was
    /// added (its foods read again, `Harvest`), none of which it had read before.
    mutating func add(documents: [SourceDocument], of source: String) {
        // The charset a server declares is part of the input: the same bytes read as other text.
        for document in Set(documents.map { "\(source) \($0.url) \($0.status) \($0.sha256)\(Self.charset($0))" }) {
            self.documents.add(document)
        }
    }

    /// A document's declared charset as its lines name it: after a space, or nothing when none
    /// was declared.
    static func charset(_ document: SourceDocument) -> String {
        document.charset.map { " charset \($0)" } ?? ""
    }

    /// Lower-case hex, as `_meta.inputs_sha256` holds it.
    var sha256: String {
        var final = hasher
        final.update(data: partitions.bytes)
        final.update(data: documents.bytes)
        return lowercaseHex(final.finalize())
    }

    static func of(spec: PipelineSpec, partitions: [Partition]) -> String {
        var fingerprint = InputFingerprint(spec: spec)
        for partition in partitions { fingerprint.add(partition) }
        return fingerprint.sha256
    }

    private mutating func hash(_ text: String) {
        hasher.update(data: Data(text.utf8))
    }
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
        // Read as regular files only, as when the spec was read: one swapped for a named pipe
        // since would otherwise hold the run here.
        func digest(of file: URL) -> String {
            (try? RegularFile.contents(of: file.path, what: "file")).map(sha256Hex) ?? "unreadable \(UUID())"
        }
        if let places {
            lines.append("places \(places.file.path) \(digest(of: places.file))")
        }
        if let hours {
            lines.append("hours \(hours.file.path) \(digest(of: hours.file))")
        }
        if let swipes {
            for file in [swipes.plansFile] + swipes.termFiles {
                lines.append("swipes \(file.path) \(digest(of: file))")
            }
        }
        if let estimator {
            lines.append("nutrition_reference \(estimator.referenceName) \(estimator.referenceVersion)")
            for file in estimator.tables.files {
                lines.append("nutrition \(file.path) \(digest(of: file))")
            }
        }
        return lines.map { $0 + "\n" }.joined()
    }
}

/// A sum of sha256 digests as 256-bit numbers, modulo 2^256: adding the same lines in any order
/// gives the same sum.
struct DigestSum {
    /// Least significant word first.
    private var words: [UInt64] = [0, 0, 0, 0]

    mutating func add(_ line: String) {
        let digest = Array(SHA256.hash(data: Data(line.utf8)))
        var carry: UInt64 = 0
        for index in 0..<4 {
            // Word `index` from the digest's bytes, big-endian, least significant word last.
            let start = (3 - index) * 8
            let word = digest[start..<start + 8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            let (partial, overflow) = words[index].addingReportingOverflow(word)
            let (sum, carried) = partial.addingReportingOverflow(carry)
            words[index] = sum
            carry = (overflow ? 1 : 0) + (carried ? 1 : 0)
        }
    }

    /// The sum as 32 bytes, most significant first.
    var bytes: Data {
        var data = Data(capacity: 32)
        for word in words.reversed() {
            for shift in stride(from: 56, through: 0, by: -8) { data.append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
        }
        return data
    }
}
