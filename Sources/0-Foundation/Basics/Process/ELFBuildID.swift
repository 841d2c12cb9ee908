import Foundation

/// The GNU build ID of an ELF executable: the linker's hash of what it wrote, so two links of
/// the same code give the same ID, and any change to the code gives another. It is how a run
/// knows whether the code that built the latest snapshot is the code running now, without
/// hashing the whole binary or trusting its modification time (a relink of unchanged code
/// touches that).
public enum ELFBuildID {
    /// The ID as lower-case hex, or nil for a file that is not a little-endian 64-bit ELF file
    /// or has no build ID note.
    public static func read(_ file: URL) -> String? {
        guard let handle = try? FileHandle(forReadingFrom: file) else { return nil }
        defer { try? handle.close() }
        guard let header = try? handle.read(upToCount: 64), header.count == 64,
              header.prefix(4) == Data([0x7F, 0x45, 0x4C, 0x46]), header[4] == 2, header[5] == 1
        else { return nil }
        let programHeaders = header.integer(UInt64.self, at: 0x20)
        let entrySize = Int(header.integer(UInt16.self, at: 0x36))
        let count = Int(header.integer(UInt16.self, at: 0x38))
        guard entrySize >= 56, count > 0, count < 512,
              (try? handle.seek(toOffset: programHeaders)) != nil,
              let table = try? handle.read(upToCount: entrySize * count), table.count == entrySize * count
        else { return nil }
        for index in 0..<count {
            let entry = table.subdata(in: index * entrySize..<(index + 1) * entrySize)
            let noteSegment: UInt32 = 4
            guard entry.integer(UInt32.self, at: 0) == noteSegment else { continue }
            let offset = entry.integer(UInt64.self, at: 8)
            let size = entry.integer(UInt64.self, at: 32)
            guard size < 1 << 20, (try? handle.seek(toOffset: offset)) != nil,
                  let notes = try? handle.read(upToCount: Int(size)), notes.count == Int(size)
            else { continue }
            if let id = buildID(inNotes: notes) { return id }
        }
        return nil
    }

    /// Walks a note segment: each note is name size, descriptor size, type, then the name and
    /// the descriptor, each padded to four bytes. The build ID is type 3 named "GNU".
    public static func buildID(inNotes notes: Data) -> String? {
        var position = 0
        while position + 12 <= notes.count {
            let nameSize = Int(notes.integer(UInt32.self, at: position))
            let descriptorSize = Int(notes.integer(UInt32.self, at: position + 4))
            let type = notes.integer(UInt32.self, at: position + 8)
            let name = position + 12
            let descriptor = name + (nameSize + 3) / 4 * 4
            let next = descriptor + (descriptorSize + 3) / 4 * 4
            guard nameSize < 1 << 16, descriptorSize < 1 << 16, next <= notes.count else { return nil }
            if type == 3, notes.subdata(in: name..<name + nameSize) == Data("GNU\0".utf8), descriptorSize > 0 {
                return notes.subdata(in: descriptor..<descriptor + descriptorSize)
                    .map { String(format: "%02x", $0) }.joined()
            }
            position = next
        }
        return nil
    }
}

extension Data {
    /// A little-endian integer at a byte offset from the start.
    fileprivate func integer<T: FixedWidthInteger>(_ type: T.Type, at offset: Int) -> T {
        var value = T.zero
        for byte in (0..<MemoryLayout<T>.size).reversed() {
            value = value << 8 | T(self[startIndex + offset + byte])
        }
        return value
    }
}
