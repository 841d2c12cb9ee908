import Foundation

/// What one child process measured, sent to the parent as one JSON line on standard output.
struct Measurement: Codable {
    struct Stage: Codable {
        var name: String
        var seconds: Double
    }

    /// Wall time of the measured work (a whole run, or the floor's timed loop).
    var seconds: Double
    /// User + system CPU time of the whole child: above `seconds` when both cores worked.
    var cpuSeconds: Double
    /// Peak resident memory of the child (VmHWM), in kB.
    var peakKB: Int
    var stages: [Stage] = []
    var documents = 0
    var bytes = 0
    var rows = 0
    /// Floors that time two phases apart: reading the bytes from disk, apart from parsing them.
    var readSeconds: Double?
    /// Reading, hashing and appending the same bytes to one file (`FetchAlone`).
    var keepSeconds: Double?
    /// Reading and hashing the same bytes, nothing kept: what a store that recorded a local file
    /// by its path and hash, instead of a copy, would still pay (`FetchAlone`).
    var hashSeconds: Double?
    var snapshot: String?
    var manifest: String?
    var snapshotBytes = 0
    /// Building the snapshot's report page, after the run and apart from its time, compared with
    /// the night before as a new build finds it (`PipelineScenario`).
    var reportSeconds: Double?
    /// The same page with every day's items compared: against a snapshot from before items
    /// digests, or a file of unknown make.
    var reportEveryDaySeconds: Double?
    /// Writing the change file a nightly publish writes beside its snapshot, after the run
    /// and apart from its time (the snapshot against itself: every row of every table compared).
    var changesSeconds: Double?
    /// The fetch stage's counts (`documents_fresh`, `documents_refetched`, …).
    var counts: [String: Int] = [:]
    /// The tables the run kept whole from the snapshot it continued, as its write and check
    /// stages count them: what its change file did not compare.
    var keptTables: [String] = []

    func stage(_ name: String) -> Double? {
        stages.first { $0.name == name }?.seconds
    }
}

/// Monotonic time, for intervals (Date can jump).
func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

extension Array {
    /// The element whose `key` is the median: with an even count, the higher of the two middle
    /// ones, so that a tie goes against the code measured. Nil for no elements.
    func upperMedian(by key: (Element) -> Double) -> Element? {
        isEmpty ? nil : sorted { key($0) < key($1) }[count / 2]
    }
}
