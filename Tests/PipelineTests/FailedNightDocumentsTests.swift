import FoodModel
@testable import Pipeline
import Testing

/// Which documents the night after a failed one asks for again rather than reading the raw
/// store's copies (`Harvest.readOnAFailedNight`): those the failed attempt read with other bytes
/// than the partition's last good version, since they may be why it failed; all it read when it
/// never had a good version; none after a good night.
@Suite struct FailedNightDocumentsTests {
    private func document(_ url: String, _ sha256: String) -> SourceDocument {
        SourceDocument(url: url, fetchedAt: "2026-10-12T02:00:00Z", status: 200, sha256: sha256, charset: "utf-8",
                       byteCount: 100)
    }

    private func state(_ status: PartitionState.Status, read documents: [SourceDocument], lastGood: [SourceDocument]?)
        -> PartitionState {
        PartitionState(source: "menus", key: "2026-10-11", status: status, documents: documents, runId: "r2",
                       updatedAt: "2026-10-12T02:00:00Z",
                       lastGood: lastGood.map { LastGood(documents: $0, runId: "r1", summary: nil) })
    }

    @Test func aFailedNightsChangedAndNewDocumentsAreAskedAgainTheRestIsTrusted() {
        let good = [document("/menu", "a"), document("/recipe/1", "b"), document("/recipe/2", "c")]
        // The menu is the good night's bytes; recipe 1 came back different; recipe 3 is new;
        // recipe 2 was not read at all on the failed night.
        let failed = [document("/menu", "a"), document("/recipe/1", "x"), document("/recipe/3", "d")]
        #expect(Harvest.readOnAFailedNight(state(.failed, read: failed, lastGood: good)) == ["/recipe/1", "/recipe/3"])
        #expect(Harvest.readOnAFailedNight(state(.failed, read: failed, lastGood: nil)) == ["/menu", "/recipe/1", "/recipe/3"])
        #expect(Harvest.readOnAFailedNight(state(.done, read: failed, lastGood: good)).isEmpty)
    }
}
