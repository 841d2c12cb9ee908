import Foundation

/// The cores this process may use, asked once. Foundation answers `activeProcessorCount` on Linux
/// by reading the cgroup's CPU quota from `/sys/fs/cgroup` each time it is asked, and a run asked
/// once for every partition it started (34 ms over a year of menus).
public enum Cores {
    public static let active = max(1, ProcessInfo.processInfo.activeProcessorCount)
}
