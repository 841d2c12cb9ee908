import Basics
import FoodModel
import Foundation
import Logging
import Snapshot
import SourceAdapters

/// What every stage of one run shares: the pipeline, how the run was asked for, which run it is,
/// and whom it tells. A value, so a stage takes this and not the runner.
struct StageContext: Sendable {
    let spec: PipelineSpec
    let options: RunOptions
    let runId: String
    /// The day that names the snapshot file: `--as-of`'s, else the UTC day the run id's time
    /// belongs to.
    let runDate: String
    /// When the run began, as `_runs` and the manifest record it.
    let started: Date
    /// The same moment on the clock its deadline (`fetch.max_run_minutes`) is counted on.
    let begun: RunClock.Instant
    /// Whom the run's events go to (a dry run tells no one).
    var observer: any RunObserver
    /// Stamped with the pipeline and the run, so every line the run's libraries log says which.
    let logger: Logger
    /// What each stage spent outside its own turn, for the stage log.
    let times: StageTimes

    init(spec: PipelineSpec, options: RunOptions, observer: any RunObserver, logger: Logger) {
        self.spec = spec
        self.options = options
        self.observer = observer
        let instant = options.clock.now()
        self.started = instant
        self.begun = options.clock.instant
        self.times = StageTimes(clock: options.clock)
        self.runId = Self.makeRunId(at: instant)
        self.runDate = options.asOf?.description ?? String(ISOTimestamp.string(from: instant).prefix(10))
        var logger = logger
        logger[metadataKey: "pipeline"] = "\(spec.name)"
        logger[metadataKey: "run"] = "\(runId)"
        self.logger = logger
    }

    /// `HHMMSSmmm` (UTC, to the millisecond) plus two random hex digits: run ids of one day sort
    /// in the order the runs started — retention and resumption rely on that — and two runs
    /// started in the same millisecond still differ.
    static func makeRunId(at instant: Date) -> String {
        let parts = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: instant)
        let milliseconds = (parts.nanosecond ?? 0) / 1_000_000
        let time = String(format: "%02d%02d%02d%03d", parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0,
                          milliseconds)
        return time + String(format: "%02x", UInt8.random(in: 0...UInt8.max))
    }

    var clock: RunClock { options.clock }

    /// The name of the snapshot the run publishes, and of its staging database.
    var snapshotFileName: String { SnapshotStore.fileName(pipeline: spec.name, date: runDate, runId: runId) }

    var secondsSinceStart: Double { clock.seconds(since: begun) }

    func emit(_ kind: RunEvent.Kind, stage: StageName? = nil, source: String? = nil,
              partition: String? = nil, status: String? = nil, message: String? = nil,
              seconds: Double? = nil, counts: [String: Int]? = nil, path: String? = nil,
              check: CheckOutcome? = nil) {
        observer.observe(RunEvent(kind, at: clock.now(), pipeline: spec.name, runId: runId, stage: stage, source: source,
                                  partition: partition, status: status, message: message,
                                  seconds: seconds, counts: counts, path: path, check: check))
    }
}
