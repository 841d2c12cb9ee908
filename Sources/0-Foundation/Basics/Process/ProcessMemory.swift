import CPlatform

/// Allocator settings for the whole process, for an executable that runs a pipeline to apply
/// once at start (`commissary run`, and the benchmark's runs, which must allocate as it does).
public enum ProcessMemory {
    /// Applies both settings below; false where the C library has no such settings (not glibc)
    /// or refused one.
    @discardableResult
    public static func applyRunSettings() -> Bool {
        #if canImport(Glibc)
        // Each applied whatever the other answers.
        let merged = mergeFreedBlocksAtOnce()
        let returned = returnFreedMemoryPromptly()
        return merged && returned
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

    /// Fixes glibc's thresholds, which it otherwise moves as the run goes: each freed mapped block
    /// raises the size from which blocks are mapped to its own, and the free memory an arena may
    /// keep at its top to twice that, after which every thread's arena keeps that much rather than
    /// give it back. A run of 100,000 recipes then peaked 5 to 15 MB above one of 10,000, all of
    /// it in one thread's arena during the write stage. Fixed (any of these set turns glibc's
    /// adjustment off): blocks from 4 MiB up are mapped, an arena gives back free memory past
    /// 2 MiB at its top, and it grows and shrinks by 1 MiB more than asked, so that a heap does not
    /// give back and fault in again the same pages as a batch comes and goes. Both recipe runs
    /// then peak at 91 to 95 MB, and 10,000 recipes take as long as before (eight runs of each in
    /// turn); glibc's starting 128 KiB for the first two kept the peaks lower still but mapped
    /// every block from 128 KiB up, and the year's run took a sixth longer.
    private static func returnFreedMemoryPromptly() -> Bool {
        [(M_MMAP_THRESHOLD, Int32(4 << 20)), (M_TRIM_THRESHOLD, 2 << 20), (M_TOP_PAD, 1 << 20)]
            .map { mallopt($0.0, $0.1) == 1 }.allSatisfy { $0 }
    }
    #endif
}
