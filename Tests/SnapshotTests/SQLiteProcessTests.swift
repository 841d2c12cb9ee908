import GRDB
import Snapshot
import Testing

/// The success path (a fresh process, before any connection) is taken by every
/// `commissary run` and checked by every `commissary-bench` child, which refuses to measure
/// without it; a test process has opened SQLite long before, so only the refusal runs here.
@Suite struct SQLiteProcessTests {
    @Test func memoryStatisticsCannotBeTurnedOffOnceSQLiteIsRunning() throws {
        let queue = try DatabaseQueue()
        #expect(try queue.read { try Int.fetchOne($0, sql: "SELECT 1") } == 1)
        #expect(SQLiteProcess.disableMemoryStatistics() == false)
        // Refused means unchanged: connections keep working.
        #expect(try DatabaseQueue().read { try Int.fetchOne($0, sql: "SELECT 2") } == 2)
    }
}
