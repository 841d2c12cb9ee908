import Foundation

/// The ledger states of partitions taken from the parse cache, not yet committed. Such a state
/// changes only which run saw the partition last: losing it to a kill costs the next run one
/// cache read, where a commit of its own would cost a sync of the log (a fifth of the harvest
/// of a rerun in which one day changed). They are committed with the next partition that was
/// fetched or parsed, `perCommit` at a time, and at the end of the harvest; a state that is the
/// one recorded but for its run and time updates those two alone, without encoding the rest.
struct CachedPartitionRecords {
    static let perCommit = 64
    private var states: [PartitionState] = []
    private var seenAgain: [(source: String, key: String)] = []
    private var run: (id: String, time: String)?

    mutating func add(_ state: PartitionState, previous: PartitionState?, to ledger: StateLedger) throws {
        var recorded = previous
        recorded?.runId = state.runId
        recorded?.updatedAt = state.updatedAt
        if recorded == state {
            seenAgain.append((state.source, state.key))
            run = (state.runId, state.updatedAt)
        } else {
            states.append(state)
        }
        if states.count + seenAgain.count >= Self.perCommit { try commit(to: ledger) }
    }

    mutating func commit(to ledger: StateLedger) throws {
        try ledger.record(states)
        if let run { try ledger.recordSeenAgain(seenAgain, runId: run.id, at: run.time) }
        states = []
        seenAgain = []
        run = nil
    }
}
