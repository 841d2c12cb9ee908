import CPlatform
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Copies a file into a new file in the kernel. Not synced: for working copies that a failure
/// throws away (the staging database a run starts from, and the finished one moved beside the
/// snapshots, synced there once verified).
public enum FileCopy {
    /// Where the file system shares extents (XFS with reflink, Btrfs), the copy shares the
    /// source's (FICLONE): constant time and no space until a page is written, so a night that
    /// continues a decade's snapshot copies nothing, and syncing it writes only the pages the
    /// night changed. Elsewhere the bytes are copied (sendfile(2): no byte passes through the
    /// process; three times faster than SQLite's backup of a 20 MB snapshot, page by page).
    public static func copy(from source: String, to target: String) throws {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw failure("cannot open to copy", path: source) }
        defer { close(input) }
        let output = open(target, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard output >= 0 else { throw failure("cannot create the copy", path: target) }
        defer { close(output) }
        if commissary_clone_file(output, input) == 0 { return }
        while true {
            let copied = sendfile(output, input, nil, 1 << 30)
            guard copied >= 0 else { throw failure("cannot copy \(source)", path: target) }
            if copied == 0 { return }
        }
    }

    /// Moves a file to `target` by renaming it, or, where `target` is on another file system,
    /// by copying it there and removing the original. Not synced, as `copy`.
    public static func move(from source: String, to target: String) throws {
        if rename(source, target) == 0 { return }
        guard errno == EXDEV else { throw failure("cannot move \(source)", path: target) }
        do {
            try copy(from: source, to: target)
        } catch {
            unlink(target)
            throw error
        }
        unlink(source)
    }

    private static func failure(_ what: String, path: String) -> Failure {
        Failure.fileSystem("\(what): \(String(cString: strerror(errno)))", path: path)
    }
}
