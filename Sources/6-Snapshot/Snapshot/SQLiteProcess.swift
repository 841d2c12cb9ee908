import CSQLiteConfig

/// SQLite settings that hold for the whole process, for an executable to apply once at start.
public enum SQLiteProcess {
    /// Turns SQLite's memory statistics off (`SQLITE_CONFIG_MEMSTATUS`). With them on, every
    /// allocation SQLite makes takes a process-wide mutex to count it; writing a million rows,
    /// that mutex and malloc were as much of the time as SQLite's own work. Nothing here reads
    /// the statistics (`sqlite3_memory_used`, soft heap limits). SQLite accepts this only before
    /// its first connection; later it refuses and this returns false, changing nothing.
    @discardableResult
    public static func disableMemoryStatistics() -> Bool {
        commissary_sqlite3_disable_memstatus() == 0
    }
}
