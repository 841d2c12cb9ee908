import Basics
import FoodModel
import Foundation
@testable import Snapshot
import Testing

/// The latest snapshot copied into staging ahead of the night (`StagingCopy`): taken by the
/// staging database that continues that very file, removed when it is not taken.
@Suite struct StagingCopyTests {
    /// The copy's name beside the staging file, which a killed run's leftovers are swept by.
    private func ahead(of staging: URL) -> URL { URL(fileURLWithPath: staging.path + "-scratch-ahead") }

    /// Where tonight's staging database is made in `folder`.
    private func tonight(in folder: URL) -> URL { folder.appendingPathComponent("staging/tonight.sqlite") }

    /// The small dataset's two days staged in `folder` as the latest snapshot, and tonight's
    /// staging file beside it.
    private func night(in folder: URL) throws -> (latest: URL, target: URL) {
        (try stage(smallDataset(), in: folder, runId: "latest").url, tonight(in: folder))
    }

    private func days(in file: URL) throws -> [String] {
        try SnapshotReader.read(file) { db in try String.fetchAll(db, sql: "SELECT date FROM service_day ORDER BY date") }
    }

    @Test func aNightThatContinuesTheFileTakesTheCopy() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (latest, target) = try night(in: folder)
        let copy = try #require(StagingCopy.start(of: latest, beside: target))
        let staging = try StagingSnapshot(creatingAt: target, continuing: LatestSnapshot(reading: latest), copiedAhead: copy)
        #expect(staging.continuesPrevious)
        #expect(!FileManager.default.fileExists(atPath: ahead(of: target).path))
        // Taken, the copy is the staging database: discarding it afterwards removes nothing.
        copy.discard()
        #expect(try days(in: target) == ["2026-10-10", "2026-10-11"])
        staging.discard()
    }

    @Test func aCopyNotTakenIsRemoved() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (latest, target) = try night(in: folder)
        let copy = try #require(StagingCopy.start(of: latest, beside: target))
        copy.discard()
        #expect(!FileManager.default.fileExists(atPath: ahead(of: target).path))
        #expect(!FileManager.default.fileExists(atPath: target.path))
        #expect(try days(in: latest) == ["2026-10-10", "2026-10-11"])
    }

    /// A copy of another file than the one the night continues is not taken: the staging
    /// database copies its own, and the copy ahead is removed.
    @Test func aCopyOfAnotherFileIsNotTaken() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let other = try stage(smallDataset(), in: folder, runId: "other").url
        var oneDay = smallDataset()
        oneDay.serviceDays.removeLast()
        let latest = try stage(oneDay, in: folder, runId: "latest").url
        let target = tonight(in: folder)
        let copy = try #require(StagingCopy.start(of: other, beside: target))
        let staging = try StagingSnapshot(creatingAt: target, continuing: LatestSnapshot(reading: latest), copiedAhead: copy)
        #expect(staging.continuesPrevious)
        #expect(!FileManager.default.fileExists(atPath: ahead(of: target).path))
        #expect(try days(in: target) == ["2026-10-10"])
        staging.discard()
    }

    /// A copy that could not be made (its name taken by a folder) is not taken: the staging
    /// database copies the file itself.
    @Test func aCopyThatFailedIsNotTaken() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (latest, target) = try night(in: folder)
        try FileManager.default.createDirectory(at: ahead(of: target), withIntermediateDirectories: true)
        let copy = try #require(StagingCopy.start(of: latest, beside: target))
        let staging = try StagingSnapshot(creatingAt: target, continuing: LatestSnapshot(reading: latest), copiedAhead: copy)
        #expect(staging.continuesPrevious)
        #expect(try days(in: target) == ["2026-10-10", "2026-10-11"])
        staging.discard()
    }
}
