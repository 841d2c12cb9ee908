import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// SQLite reports a full disk in several ways (SQLITE_FULL, or a "disk I/O error" when the WAL
/// index cannot grow), none of which tells an operator to free space. When a database operation
/// fails, the folder's free space is looked up so that the one-line error can say so.
public enum FreeSpace {
    /// `"; the filesystem of <folder> is full"` when no block is left for us there, else empty.
    public static func note(near file: URL) -> String {
        let folder = file.deletingLastPathComponent().path
        var stats = statvfs()
        guard statvfs(folder, &stats) == 0, stats.f_bavail == 0 else { return "" }
        return "; the filesystem of \(folder) is full (no space left on device)"
    }
}
