import Basics

/// Politeness per host: at most `limit` transfers at once and starts spaced by `spacing`.
///
/// Every attempt, retries included, passes through the gate, so a retry storm against one host
/// is throttled like any other traffic; back-off sleeps happen outside it and hold no slot.
actor HostGate {
    private struct HostState {
        var active = 0
        var waiting: [CheckedContinuation<Void, Never>] = []
        var nextStart: RunClock.Instant?
    }

    private let limit: Int
    private let spacing: Duration
    private let clock: RunClock
    private var hosts: [String: HostState] = [:]

    init(limit: Int, spacing: Duration, clock: RunClock) {
        self.limit = max(1, limit)
        self.spacing = spacing
        self.clock = clock
    }

    /// Waits for a slot and for the host's spacing; pair every call with `release(_:)`. False
    /// when the request's turn would come at or after `deadline`: it then reserves no start, so
    /// the requests queued behind it when a run's time is up fail at once instead of each
    /// waiting out its spacing first (the slot is taken all the same, for `release`).
    func acquire(_ host: String, before deadline: RunClock.Instant? = nil) async -> Bool {
        if hosts[host, default: HostState()].active < limit {
            hosts[host, default: HostState()].active += 1
        } else {
            // `release` hands its slot straight to the first waiter, so `active` stays counted.
            await withCheckedContinuation { hosts[host, default: HostState()].waiting.append($0) }
        }
        let now = clock.instant
        let start = max(now, hosts[host]?.nextStart ?? now)
        if let deadline, start >= deadline { return false }
        hosts[host, default: HostState()].nextStart = start + spacing
        if start > now {
            // Cancellation is noticed by the transfer itself right after; the slot must still be taken.
            try? await clock.sleep(until: start)
        }
        return true
    }

    func release(_ host: String) {
        guard var state = hosts[host] else { return }
        if state.waiting.isEmpty {
            state.active -= 1
        } else {
            state.waiting.removeFirst().resume()
        }
        hosts[host] = state
    }
}
