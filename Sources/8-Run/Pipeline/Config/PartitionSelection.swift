import Basics

/// The partitions a subset run does (`run --partition SOURCE/PARTITION`, as `run --dry-run` lists
/// each step's `key`), so that an orchestrator can spread a night over tasks and retry one
/// partition at a time. The others are replayed as the ledger last recorded them when it has
/// them published; while one is not (never harvested, or failed when last harvested) the night
/// is incomplete, and the run keeps what it harvested without publishing (`RunStatus.harvested`).
public struct PartitionSelection: Hashable, Sendable {
    /// `source/partition`, as `key(source:partition:)` writes them.
    public let keys: Set<String>

    /// Refuses a key that is not `source/partition` with both parts given.
    public init(_ keys: [String]) throws {
        for key in keys {
            let parts = key.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw Failure(.badInput, "a partition is named as its source and key, SOURCE/PARTITION "
                              + "(as `run --dry-run --log-format json` lists them): \(key)", at: "--partition")
            }
        }
        self.keys = Set(keys)
    }

    /// How a partition is named on the command line, in the plan and in messages.
    public static func key(source: String, partition: String) -> String {
        "\(source)/\(partition)"
    }

    func contains(source: String, partition: String) -> Bool {
        keys.contains(Self.key(source: source, partition: partition))
    }

    /// Refuses keys that name no partition of the run (`known`, as `key` writes them), listing
    /// a few it has.
    func check(against known: [String]) throws {
        let unknown = keys.subtracting(known).sorted()
        guard !unknown.isEmpty else { return }
        let examples = known.prefix(5).joined(separator: ", ") + (known.count > 5 ? ", …" : "")
        throw Failure(.unknownName, "no partition of this run is named \(unknown.joined(separator: ", ")); "
                      + "its partitions are \(examples) (`run --dry-run` lists them all)", at: "--partition")
    }
}
