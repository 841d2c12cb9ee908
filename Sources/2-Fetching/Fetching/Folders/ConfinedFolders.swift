import CPlatform
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The folders a `DirectorySource` may read, each held open, so that a file under one is opened
/// in a single system call that follows no link and never leaves the folder
/// (`commissary_open_beneath`, Linux's `openat2`). Where that call can say, the file it opens
/// lies in the folder by construction: nothing is resolved or checked after the open (a
/// `readlink` of the open file, a walk of its whole path from `/`, a buffer for its name cost
/// more than reading a small page).
///
/// It says nothing, and the caller takes the long way, where a link is on the way (a link that
/// stays in the folder is allowed, so the long way resolves it), where the file's path does not
/// start with a folder's name as written, and where the system lacks the call.
final class ConfinedFolders: Sendable {
    /// The folders, symbolic links resolved, each ending in "/", with its descriptor (-1 where
    /// it could not be opened when the source was made).
    private let folders: [(path: String, descriptor: Int32)]
    /// Set once the system has refused the call: a kernel before 5.6, or a sandbox that filters it.
    private static let callMissing = Atomic<Bool>(false)

    init(_ paths: [String]) {
        folders = paths.map { path in (path, open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) }
    }

    deinit {
        for folder in folders where folder.descriptor >= 0 { close(folder.descriptor) }
    }

    /// What the short way found for one name.
    enum Found {
        /// The regular file, open, with what `fstat` said of it.
        case file(descriptor: Int32, status: stat)
        /// Nothing of that name, or something that is no regular file (a folder, a named pipe):
        /// the next name is tried, as the long way tries it.
        case absent
        /// The short way cannot say (a link on the way, an error to report): the long way decides.
        case undecided
    }

    /// The folder `path` (absolute) lies under, with the rest of the path below it.
    func folder(of path: String) -> (descriptor: Int32, rest: String)? {
        guard !Self.callMissing.load(ordering: .relaxed) else { return nil }
        // Compared as bytes: a file system names files by bytes, not by Unicode's equivalences.
        for folder in folders where folder.descriptor >= 0 && path.utf8.starts(with: folder.path.utf8) {
            return (folder.descriptor, String(decoding: path.utf8.dropFirst(folder.path.utf8.count), as: UTF8.self))
        }
        return nil
    }

    /// Opens `name` (relative, without `.` or `..`) under the folder open as `folder`,
    /// non-blocking, so that a named pipe opens at once and is then passed over.
    func openFile(_ name: String, under folder: Int32) -> Found {
        let descriptor = commissary_open_beneath(folder, name, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            switch errno {
            case ENOENT, ENOTDIR: return .absent
            case ENOSYS, EPERM:
                Self.callMissing.store(true, ordering: .relaxed)
                return .undecided
            default: return .undecided
            }
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            close(descriptor)
            return .undecided
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            return .absent
        }
        return .file(descriptor: descriptor, status: status)
    }
}
