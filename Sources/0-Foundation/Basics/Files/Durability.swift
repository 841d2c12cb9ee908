import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// fsync for files and folders: SQLite does not sync what `VACUUM INTO` writes, and a rename
/// is only durable once the folder that holds it is synced too (docs/publishing.md).
public enum Durability {
    public static func sync(path: String) throws {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            throw Failure.fileSystem("cannot open to sync: \(String(cString: strerror(errno)))", path: path)
        }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else {
            throw Failure.fileSystem("fsync failed: \(String(cString: strerror(errno)))", path: path)
        }
    }

    /// Renames atomically, replacing the target if there is one (rename(2)).
    public static func rename(from source: String, to target: String) throws {
        guard Glibc.rename(source, target) == 0 else {
            throw Failure.fileSystem("cannot rename to \(target): \(String(cString: strerror(errno)))",
                                     path: source)
        }
    }

    public static func symlink(named path: String, to target: String) throws {
        guard Glibc.symlink(target, path) == 0 else {
            throw Failure.fileSystem("cannot create a symbolic link: \(String(cString: strerror(errno)))",
                                     path: path)
        }
    }

    /// Writes bytes to a new file and syncs it (unless `synced` is false: a cache's file, whose
    /// loss costs a recomputation), failing loudly on a short write (a full disk). Foundation's
    /// `Data.write(to:)` syncs every file it writes, which a cache of hundreds of small files a
    /// night pays for in disk flushes.
    public static func writeNewFile(_ bytes: Data, to path: String, synced: Bool = true) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else {
            throw Failure.fileSystem("cannot create: \(String(cString: strerror(errno)))", path: path)
        }
        defer { close(descriptor) }
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                write(descriptor, buffer.baseAddress! + written, buffer.count - written)
            }
            guard result > 0 else {
                throw Failure.fileSystem("cannot write: \(String(cString: strerror(errno)))", path: path)
            }
            written += result
        }
        guard !synced || fsync(descriptor) == 0 else {
            throw Failure.fileSystem("fsync failed: \(String(cString: strerror(errno)))", path: path)
        }
    }
}
