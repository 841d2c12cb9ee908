import CPlatform

/// Allocator settings for the whole process, for an executable to apply once at start.
public enum ProcessMemory {
    /// Turns glibc's fast bins off (`mallopt(M_MXFAST, 0)`). A fast bin keeps each small block
    /// freed as it is, for a quick reuse, and the next request of a kilobyte or more, from any
    /// thread of the arena, first merges every block held so (`malloc_consolidate`). A run frees
    /// millions of small blocks while it parses, and the merge fell on whatever asked for a larger
    /// block next: most often the buffer a fetch reads a page into, where it was a sixth of a
    /// year's fetch stage. Small blocks are still reused first from each thread's cache
    /// (tcache), and a year's run measured no slower in all. Returns false where the C library
    /// has no such setting.
    @discardableResult
    public static func mergeFreedBlocksAtOnce() -> Bool {
        #if canImport(Glibc)
        return mallopt(M_MXFAST, 0) == 1
        #else
        return false
        #endif
    }
}
