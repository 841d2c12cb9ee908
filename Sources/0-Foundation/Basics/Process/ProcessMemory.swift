import CPlatform

/// Allocator settings for the whole process, for an executable that runs a pipeline to apply
/// once at start (`commissary run`, and the benchmark's runs, which must allocate as it does).
public enum ProcessMemory {
    /// Applies both settings below; false where the C library has no such settings (not glibc)
    /// or refused one.
    @discardableResult
    public static func applyRunSettings() -> Bool {
        #if canImport(Glibc)
        return mergeFreedBlocksAtOnce() && returnFreedMemoryPromptly()
        #else
        return false
        #endif
    }

    #if canImport(Glibc)
    /// Turns glibc's fast bins off (`mallopt(M_MXFAST, 0)`). A fast bin keeps each small block
    /// freed as it is, for a quick reuse, and the next request of a kilobyte or more, from any
    /// thread of the arena, first merges every block held so (`malloc_consolidate`). A run frees
    /// millions of small blocks while it parses, and the merge fell on whatever asked for a larger
    /// block next: most often the buffer a fetch reads a page into, where it was a sixth of a
    /// year's fetch stage. Small blocks are still reused first from each thread's cache
    /// (tcache), and a year's run measured no slower in all.
    private static func mergeFreedBlocksAtOnce() -> Bool {
        mallopt(M_MXFAST, 0) == 1
    }

    /// Fixes the size from which glibc maps a block of its own at 4 MiB (`mallopt(M_MMAP_THRESHOLD)`),
    /// which keeps the size of free memory an arena may hold at its top at glibc's 128 KiB. Left
    /// to glibc, both grow: each freed mapped block raises the first to its size and the second
    /// to twice that, and from then on every thread's arena keeps that much freed memory rather
    /// than give it back. A run of 100,000 recipes then peaked 5 to 15 MB above one of 10,000,
    /// all of it in one thread's arena during the write stage; with the sizes fixed, both peak
    /// at 90 to 96 MB. 4 MiB rather than glibc's starting 128 KiB: blocks between the two stay in
    /// the arenas, where mapping and unmapping each one made a year's run a sixth slower.
    private static func returnFreedMemoryPromptly() -> Bool {
        mallopt(M_MMAP_THRESHOLD, 4 << 20) == 1
    }
    #endif
}
