import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension Process {
    /// Starts the process as a shell, cron or systemd would: with no signal blocked.
    ///
    /// Foundation starts a program with the signal mask of the thread that calls `run()`, and a
    /// test runs on a Dispatch worker thread, which blocks nearly every signal, SIGTERM, SIGINT
    /// and SIGHUP among them. A program started from there could not be stopped by `terminate()`
    /// nor by `timeout`, and outlived the suite (an `openssl s_server` was found still running
    /// after one), and a test sending SIGTERM to `commissary` tested a process no scheduler
    /// starts. The calling thread's mask is cleared for the start and put back after it.
    public func runWithSignalsUnblocked() throws {
        var none = sigset_t()
        sigemptyset(&none)
        var kept = sigset_t()
        pthread_sigmask(SIG_SETMASK, &none, &kept)
        defer { pthread_sigmask(SIG_SETMASK, &kept, nil) }
        try run()
    }
}
