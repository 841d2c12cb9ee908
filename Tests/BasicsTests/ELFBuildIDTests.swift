@testable import Basics
import Foundation
import Testing
import TestSupport
@testable import Pipeline

/// The code's identity in a run's fingerprint: the linker's build ID, read from the ELF file.
@Suite struct ELFBuildIDTests {
    /// One note as `ld` writes it: name size 4, descriptor size 20, type 3, "GNU\0", then the ID.
    private func note(type: UInt32, name: String, descriptor: [UInt8]) -> Data {
        var data = Data()
        for value in [UInt32(name.utf8.count), UInt32(descriptor.count), type] {
            withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
        }
        data.append(contentsOf: Array(name.utf8))
        data.append(contentsOf: [UInt8](repeating: 0, count: (4 - name.utf8.count % 4) % 4))
        data.append(contentsOf: descriptor)
        data.append(contentsOf: [UInt8](repeating: 0, count: (4 - descriptor.count % 4) % 4))
        return data
    }

    @Test func findsTheGNUNoteAmongOthers() {
        let id: [UInt8] = (0..<20).map { UInt8($0 * 13 % 256) }
        let notes = note(type: 1, name: "GNU\0", descriptor: [0, 0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0])
            + note(type: 3, name: "Go\0", descriptor: [1, 2, 3])
            + note(type: 3, name: "GNU\0", descriptor: id)
        #expect(ELFBuildID.buildID(inNotes: notes) == "000d1a2734414e5b6875828f9ca9b6c3d0ddeaf7")
        #expect(ELFBuildID.buildID(inNotes: notes.prefix(notes.count - 4)) == nil)
        #expect(ELFBuildID.buildID(inNotes: Data()) == nil)
    }

    /// The real binary's ID is the one binutils' `readelf -n` prints (binutils come with every
    /// Swift toolchain on Linux: Swift links with them), and a file that is not ELF has none.
    @Test func readsTheRealBinarysIDAsReadelfDoes() throws {
        let id = try #require(ELFBuildID.read(CommissaryProcess.binary))
        let readelf = Process()
        readelf.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        readelf.arguments = ["readelf", "-n", CommissaryProcess.binary.path]
        let output = Pipe()
        readelf.standardOutput = output
        try readelf.runWithSignalsUnblocked()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        readelf.waitUntilExit()
        #expect(readelf.terminationStatus == 0)
        #expect(printed.contains("Build ID: \(id)"), "\(printed.prefix(400))")
        #expect(ELFBuildID.read(Paths.pipelines.appendingPathComponent("sample.yml")) == nil)
    }

    /// The code's identity takes in the shared libraries loaded (libxml2 parses every page): the
    /// same library at another path is the same identity, and the same file name with another
    /// build ID, as a system upgrade leaves it, is another.
    @Test func anUpgradedLibraryIsOtherCode() throws {
        let data = try #require(try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/self/maps")).readToEnd())
        let maps = try #require(String(data: data, encoding: .utf8))
        let line = try #require(maps.split(separator: "\n").first { $0.contains("/libxml2.so") })
        let path = try #require(line.split(separator: " ", omittingEmptySubsequences: true).last.map(String.init))
        let real = URL(fileURLWithPath: path)
        let id = try #require(ELFBuildID.read(real))
        let folder = try Paths.temporaryFolder("libraries")
        defer { try? FileManager.default.removeItem(at: folder) }
        let same = folder.appendingPathComponent("same").appendingPathComponent(real.lastPathComponent)
        let upgraded = folder.appendingPathComponent("upgraded").appendingPathComponent(real.lastPathComponent)
        for copy in [same, upgraded] {
            try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
        }
        let bytes = try Data(contentsOf: real)
        try bytes.write(to: same)
        // The build ID's bytes, found in the file, with their first byte changed.
        let idBytes = Data(stride(from: 0, to: id.count, by: 2).compactMap { start -> UInt8? in
            let index = id.index(id.startIndex, offsetBy: start)
            return UInt8(id[index..<id.index(index, offsetBy: 2)], radix: 16)
        })
        let found = try #require(bytes.range(of: idBytes))
        var changed = bytes
        changed[found.lowerBound] ^= 0xFF
        try changed.write(to: upgraded)

        func identity(_ library: URL) -> String {
            maps.replacingOccurrences(of: path, with: library.path)
        }
        let running = CommissaryVersion.libraryIdentity(of: maps)
        #expect(CommissaryVersion.libraryIdentity(of: identity(same)) == running)
        #expect(CommissaryVersion.libraryIdentity(of: identity(upgraded)) != running)
        #expect(running.count == 16)
    }
}
