import Basics
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The latest snapshot copied into staging ahead of the night that may continue it, on a thread
/// of its own. A run starts it as it opens, where its own work (the ledger, the raw index, the
/// partitions' states) keeps one core; where the file system cannot share extents the copy is a
/// memory copy of the whole history (25 ms for a year of the bench's pages, 60 ms for three), which
/// then costs the night nothing. The staging database takes it (`take`) when it continues that
/// very file; a copy not taken (a night that finds nothing changed, a file that cannot be
/// continued) is removed (`discard`). A copy that fails is only not taken: the staging database
/// then copies the file itself and says what went wrong.
///
/// It lies beside the staging file, under its name and `-scratch-ahead`, which a killed run's
/// leftovers are removed by. It is not started where the disk has less room than twice the file
/// (`hasRoom`): a night that finds nothing changed must not fail for a copy it did not need.
public final class StagingCopy: Sendable {
    public let source: URL
    private let copy: URL
    private let done = DispatchGroup()
    private let state = Mutex(State.copying)

    private enum State {
        case copying, copied, failed, taken, discarded
    }

    /// Starts copying `source` beside `staging` (the staging file a night of it would make); nil
    /// where the disk has not the room.
    public static func start(of source: URL, beside staging: URL) -> StagingCopy? {
        try? FileManager.default.createDirectory(at: staging.deletingLastPathComponent(), withIntermediateDirectories: true)
        guard hasRoom(for: source, in: staging.deletingLastPathComponent()) else { return nil }
        return StagingCopy(source: source, copy: URL(fileURLWithPath: staging.path + "-scratch-ahead"))
    }

    private init(source: URL, copy: URL) {
        self.source = source
        self.copy = copy
        done.enter()
        DispatchQueue.global().async { [self] in
            unlink(copy.path)
            let made = (try? FileCopy.copy(from: source.path, to: copy.path)) != nil
            if !made { unlink(copy.path) }
            state.withLock { $0 = made ? .copied : .failed }
            done.leave()
        }
    }

    /// Moves the copy to `target` when it is a whole copy of `file`; false when it is not (the
    /// copy is then removed, and the caller copies `file` itself). Taken once.
    func take(as target: URL, of file: URL) -> Bool {
        done.wait()
        return state.withLock { state in
            guard case .copied = state else { return false }
            guard file.path == source.path, rename(copy.path, target.path) == 0 else {
                unlink(copy.path)
                state = .discarded
                return false
            }
            state = .taken
            return true
        }
    }

    /// Waits for the copy and removes it, unless it was taken.
    public func discard() {
        done.wait()
        state.withLock { state in
            guard case .copied = state else { return }
            unlink(copy.path)
            state = .discarded
        }
    }

    /// Whether `folder`'s file system has room for two copies of `source`: the one ahead and
    /// what the night writes after it.
    private static func hasRoom(for source: URL, in folder: URL) -> Bool {
        var stats = statvfs()
        guard let size = (try? FileManager.default.attributesOfItem(atPath: source.path)[.size]) as? NSNumber,
              statvfs(folder.path, &stats) == 0 else { return false }
        let available = UInt64(stats.f_bavail).multipliedReportingOverflow(by: UInt64(stats.f_frsize))
        return !available.overflow && available.partialValue / 2 > size.uint64Value
    }
}
