import Foundation

extension Array where Element: Sendable {
    /// `map`, spread over every core once there are `minimumCount` elements, in the same order:
    /// for work that is one stage's whole and whose elements map on their own (a dump's meals,
    /// whose mapping costs as much as decoding them; the nutrition review of every food).
    public func mappedOnEveryCore<Mapped: Sendable>(minimumCount: Int = 2_000,
                                             _ transform: @Sendable (Element) -> Mapped) -> [Mapped] {
        let cores = Cores.active
        guard cores > 1, count >= Swift.max(minimumCount, 2) else { return map(transform) }
        let chunk = (count + cores - 1) / cores
        let results = ChunkResults<Mapped>(chunks: cores)
        DispatchQueue.concurrentPerform(iterations: cores) { index in
            let range = Swift.min(index * chunk, count)..<Swift.min((index + 1) * chunk, count)
            results.set(index, self[range].map(transform))
        }
        return results.joined()
    }
}

/// One slot per chunk, each filled by one iteration of `concurrentPerform` under the lock and
/// read after it returns.
private final class ChunkResults<Mapped>: @unchecked Sendable {
    private var chunks: [[Mapped]]
    private let lock = NSLock()

    init(chunks: Int) {
        self.chunks = Array(repeating: [], count: chunks)
    }

    func set(_ index: Int, _ values: [Mapped]) {
        lock.lock()
        defer { lock.unlock() }
        chunks[index] = values
    }

    func joined() -> [Mapped] {
        chunks.flatMap { $0 }
    }
}
