import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the file system says of one version of a file without reading it: which file (device
/// and inode), how long, and when its bytes and its metadata last changed, to the nanosecond.
/// Recorded beside a document's sha256 as its entity tag, it lets a later night that finds the
/// same stamp take the recorded sha256 instead of reading and hashing the file again, as
/// `git status` trusts its index: a write changes the change time (which no call can set back),
/// the size or the inode (a file replaced by a rename).
///
/// A file changed twice within one tick of the file system's clock keeps its stamp, so a
/// stamp taken less than `settling` after the file last changed is never recorded: the file is
/// read and hashed again until it has been still that long (git's "racily clean" entries).
struct FileStamp {
    var device: UInt64
    var inode: UInt64
    var size: Int
    var modified: timespec
    var changed: timespec

    /// How long a file must have been still before its stamp stands for its bytes: more than
    /// the coarsest clock of the file systems a folder source lives on (FAT counts in 2 s).
    static let settling: Int = 3

    init(_ status: stat) {
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        size = Int(status.st_size)
        #if canImport(Darwin)
        modified = status.st_mtimespec
        changed = status.st_ctimespec
        #else
        modified = status.st_mtim
        changed = status.st_ctim
        #endif
    }

    /// The stamp as a record's `etag`: quoted, as an entity tag is.
    var entityTag: String {
        "\"file-\(device)-\(inode)-\(size)-\(modified.tv_sec).\(modified.tv_nsec)-\(changed.tv_sec).\(changed.tv_nsec)\""
    }

    /// Whether the file has been still long enough, at `now` on the system's clock, for this
    /// stamp to stand for its bytes. A change time ahead of the clock is not still.
    func isSettled(at now: timespec) -> Bool {
        now.tv_sec - changed.tv_sec > Self.settling
    }

    /// The system's clock now: the file system stamps change times from it.
    static var now: timespec {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return now
    }
}
