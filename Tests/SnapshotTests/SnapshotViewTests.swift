import Foundation
import GRDB
@testable import Snapshot
import Testing

/// Each view is defined once (`SnapshotView`) and made in SQLite by the migrations and in
/// PostgreSQL by PostgresTarget, which makes them in the order of `SnapshotSchema.views`.
@Suite struct SnapshotViewTests {
    @Test func aNewSnapshotHoldsEveryViewAsItsDefinitionWritesIt() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let staging = try StagingSnapshot(creatingAt: folder.appendingPathComponent("views.sqlite"))
        defer { staging.discard() }
        let stored = try staging.queue.read { db in
            try Row.fetchAll(db, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'view'")
                .map { ($0[0] as String, $0[1] as String) }
        }
        let defined = SnapshotSchema.views.map { ($0.name, $0.statement(in: .sqlite)) }
        #expect(Dictionary(uniqueKeysWithValues: stored) == Dictionary(uniqueKeysWithValues: defined))
    }

    @Test func everyViewComesAfterTheViewsItReadsInBothDialects() {
        let views = SnapshotSchema.views
        for dialect in [SQLDialect.sqlite, .postgresql] {
            for (position, view) in views.enumerated() {
                let words = Set(view.statement(in: dialect).split { !$0.isLetter && !$0.isNumber && $0 != "_" })
                let readLater = views[(position + 1)...].map(\.name).filter { words.contains(Substring($0)) }
                #expect(readLater.isEmpty, "\(view.name) reads \(readLater) in \(dialect)")
            }
        }
    }
}
