import Foundation
import GRDB
import Snapshot
import Testing
import TestSupport

/// Damage that costs data says so: a NetNutrition label cut in half used to publish 9 of its 16
/// nutrients with exit 0 and no word. The real binary on a folder of two real labels, UIUC's cut
/// at half its bytes (5,914 of 11,828, inside its Potassium row) and Duke's whole.
@Suite struct DamagedLabelRunTests {
    /// A pipeline reading the labels saved in `folder`'s `labels`.
    private static func labelsPipeline(in folder: URL) throws -> URL {
        let pipeline = folder.appendingPathComponent("labels.yml")
        try Data("""
            pipeline: labels
            sources:
              - name: labels
                adapter: netnutrition-label
                location: labels
            """.utf8).write(to: pipeline)
        return pipeline
    }

    @Test func aLabelCutInHalfPublishesWithAWarningNamingTheFood() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let labels = folder.appendingPathComponent("labels")
        try FileManager.default.createDirectory(at: labels, withIntermediateDirectories: true)
        let uiuc = try SharedData.load("netnutrition-2026/uiuc-label-122098028.html")
        let cut = labels.appendingPathComponent("122098028.html")
        try uiuc.prefix(uiuc.count / 2).write(to: cut)
        try SharedData.load("netnutrition-2025/duke-label-egg-bite.html").write(to: labels.appendingPathComponent("4711.html"))
        let pipeline = try Self.labelsPipeline(in: folder)

        let warning = "label of Blondie Bars (netnutrition:122098028) is damaged: \(cut.path) ends inside the label's "
            + "table (cut short), so the rows after the cut are missing; kept as read: 9 nutrient(s), no ingredients, "
            + "no allergens; save the label again"
        // One odd label does not cost the night: published, exit 0, and the warning said.
        let run = try await CommissaryProcess.run(["run", pipeline.path, "--workspace", folder.path, "--log-format", "text"])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.error.contains("! partition_warning: \(warning)"), "\(run.error)")
        let snapshot = try #require(SnapshotStore(directory: folder.appendingPathComponent("snapshots")).latest(pipeline: "labels"))
        #expect(try SnapshotReader.checks(of: snapshot).filter { $0.name == "partition_warning" }.map(\.message) == [warning])
    }

    /// Duke's real label with its Sodium row ("390mg") made "Vitamin D 2.5mg", a unit no serving's
    /// amount can be in (12,500% of the daily value): published in the unit the amount fits, mcg,
    /// with a warning naming the label and the food; the night is not failed for it.
    @Test func aLabelsUnitItsAmountCannotBeInIsPublishedInTheOneItFitsWithAWarning() async throws {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let labels = folder.appendingPathComponent("labels")
        try FileManager.default.createDirectory(at: labels, withIntermediateDirectories: true)
        let duke = String(decoding: try SharedData.load("netnutrition-2025/duke-label-egg-bite.html"), as: UTF8.self)
        let label = labels.appendingPathComponent("4711.html")
        try Data(try #require(MenuPageEdits.dukeSodiumAsVitaminD(duke, printing: "2.5mg")).utf8).write(to: label)
        let pipeline = try Self.labelsPipeline(in: folder)

        let run = try await CommissaryProcess.run(["run", pipeline.path, "--workspace", folder.path, "--log-format", "text"])
        #expect(run.status == 0, "\(run.error)")
        let warning = "\(label.path): Bacon Swiss and Arugula Egg Bite: vitamin_d printed in mg, read in mcg: the amount is "
            + "more than a serving of any food holds in the unit printed"
        #expect(run.error.contains("! partition_warning: \(warning)"), "\(run.error)")
        let snapshot = try #require(SnapshotStore(directory: folder.appendingPathComponent("snapshots")).latest(pipeline: "labels"))
        let published = try SnapshotReader.read(snapshot) { db in
            try Row.fetchAll(db, sql: """
                SELECT amount || ' ' || unit FROM food_nutrient WHERE food_id = 'netnutrition:4711' AND nutrient_key = 'vitamin_d'
                """).map { $0[0] as String? }
        }
        #expect(published == ["2.5 mcg"])
    }
}
