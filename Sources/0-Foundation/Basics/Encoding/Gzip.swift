import CZlib
import Foundation

/// gzip (RFC 1952) through zlib, for the change files published beside snapshots: any client
/// reads them with its platform's gzip (Python's `gzip`, `gunzip`, a browser's
/// `DecompressionStream`). Foundation compresses only on Apple platforms, so zlib is called here,
/// once.
public enum Gzip {
    public static func compress(_ data: Data, place: String) throws -> Data {
        var stream = z_stream()
        guard commissary_gzip_deflate_init(&stream, Z_DEFAULT_COMPRESSION) == Z_OK else {
            throw Failure(.fileSystem, "zlib cannot start compressing (out of memory?)", at: place)
        }
        defer { deflateEnd(&stream) }
        return try run(&stream, on: data, place: place) { deflate(&$0, Z_FINISH) }
    }

    /// Refuses what is not gzip, or is cut short, naming `place`.
    public static func decompress(_ data: Data, place: String) throws -> Data {
        var stream = z_stream()
        guard commissary_gzip_inflate_init(&stream) == Z_OK else {
            throw Failure(.fileSystem, "zlib cannot start decompressing (out of memory?)", at: place)
        }
        defer { inflateEnd(&stream) }
        return try run(&stream, on: data, place: place) { inflate(&$0, Z_NO_FLUSH) }
    }

    /// Feeds all of `data` through `step`, 64 KiB of output at a time, until zlib says the
    /// stream ended.
    private static func run(_ stream: inout z_stream, on data: Data, place: String,
                            step: (inout z_stream) -> Int32) throws -> Data {
        var input = data
        var output = Data()
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let status = input.withUnsafeMutableBytes { (source: UnsafeMutableRawBufferPointer) -> Int32 in
            stream.next_in = source.bindMemory(to: Bytef.self).baseAddress
            stream.avail_in = uInt(source.count)
            while true {
                let result = chunk.withUnsafeMutableBufferPointer { buffer -> Int32 in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = uInt(buffer.count)
                    return step(&stream)
                }
                output.append(contentsOf: chunk[0..<(chunk.count - Int(stream.avail_out))])
                guard result == Z_OK else { return result }
                // Every byte read, room left, and still no end: the stream was cut short.
                if stream.avail_in == 0 && stream.avail_out != 0 { return Z_BUF_ERROR }
            }
        }
        switch status {
        case Z_STREAM_END: return output
        case Z_BUF_ERROR: throw Failure(.damagedBytes, "the gzip data is cut short", at: place)
        default: throw Failure(.damagedBytes, "not gzip data, or damaged (zlib status \(status))", at: place)
        }
    }
}
