import CCurl
import Foundation

/// Idle libcurl easy handles kept for the next transfer. A handle keeps its connections open,
/// so the next request to the same host skips the TCP and TLS handshakes: kinder to the server
/// and faster for us. A handle is out of the pool while in use, so no two threads ever share one.
final class EasyHandlePool: @unchecked Sendable {
    private let capacity: Int
    private let lock = NSLock()
    private var idle: [UnsafeMutableRawPointer] = []

    init(capacity: Int) {
        self.capacity = capacity
    }

    deinit {
        for handle in idle { curl_easy_cleanup(handle) }
    }

    /// An idle handle, or a new one; nil only if libcurl cannot allocate.
    func take() -> UnsafeMutableRawPointer? {
        lock.withLock { idle.popLast() } ?? curl_easy_init()
    }

    /// Clears every option (connections and caches stay) and keeps the handle if there is room.
    func giveBack(_ handle: UnsafeMutableRawPointer) {
        curl_easy_reset(handle)
        let kept = lock.withLock {
            guard idle.count < capacity else { return false }
            idle.append(handle)
            return true
        }
        if !kept { curl_easy_cleanup(handle) }
    }
}
