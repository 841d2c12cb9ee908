import Basics
import Dispatch
import Foundation
import Glibc
import Synchronization

/// Turns SIGINT, SIGTERM and SIGHUP into a request to stop: the running command's task is
/// cancelled, and the libraries stop at their next boundary and clean up, instead of the
/// process dying where it stands. A second signal of the same kind, while stopping, ends the
/// process at once as the default action would.
final class SignalStop {
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]
    private let sources: [any DispatchSourceSignal]
    private let received = FirstSignal()

    /// The first signal, shared with the handlers.
    private final class FirstSignal: Sendable {
        let number = Mutex<Int32?>(nil)
    }

    init(cancel: @escaping @Sendable () -> Void) {
        let received = self.received
        sources = Self.signals.map { number in
            Glibc.signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                let first = received.number.withLock { seen in
                    defer { seen = seen ?? number }
                    return seen == nil
                }
                guard first else {
                    Glibc.signal(number, SIG_DFL)
                    raise(number)
                    return
                }
                cancel()
            }
            source.resume()
            return source
        }
    }

    /// The first signal received, if any.
    var first: Int32? { received.number.withLock { $0 } }

    /// Puts the default actions back once the command is done.
    func restore() {
        for source in sources { source.cancel() }
        for number in Self.signals { Glibc.signal(number, SIG_DFL) }
    }
}

extension Failure {
    /// A run that stopped because a signal asked it to: one line, and 128 plus the signal's number.
    static func stopped(by signal: Int32) -> Failure {
        let name = [SIGINT: "SIGINT", SIGTERM: "SIGTERM", SIGHUP: "SIGHUP"][signal] ?? "signal \(signal)"
        var failure = Failure(.interrupted, "stopped by \(name) before publishing; the last good snapshot stays latest "
                              + "and the next run resumes from the partitions already done")
        failure.signal = signal
        return failure
    }
}
