import Basics
import CCurl
import Foundation

/// libcurl's own floor for a night's requests: the same URLs fetched in a plain loop, one easy
/// handle (its connection kept), each body copied once, nothing else. CPU time is this loop's
/// alone, not the process's start.
enum CurlFloor {
    static func fetch(urls file: URL) throws -> Measurement {
        let urls = try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map(String.init)
        guard commissary_curl_global_init() == CURLE_OK, let handle = curl_easy_init() else {
            throw BenchError("floor-curl: libcurl could not be initialised")
        }
        defer { curl_easy_cleanup(handle) }
        final class Body { var data = Data() }
        let body = Body()
        let bodyPointer = Unmanaged.passUnretained(body).toOpaque()
        _ = commissary_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, bodyPointer)
        _ = commissary_curl_setopt_write_function(handle) { data, size, count, userdata in
            guard let data, let userdata else { return 0 }
            Unmanaged<Body>.fromOpaque(userdata).takeUnretainedValue().data
                .append(UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: size * count)
            return size * count
        }
        let cpuBefore = ProcessResources.cpuSeconds()
        let started = now()
        var bytes = 0
        for url in urls {
            body.data.removeAll(keepingCapacity: true)
            _ = commissary_curl_setopt_string(handle, CURLOPT_URL, url)
            let code = curl_easy_perform(handle)
            guard code == CURLE_OK else {
                throw BenchError("floor-curl: \(url): \(String(cString: curl_easy_strerror(code)))")
            }
            bytes += body.data.count
        }
        return Measurement(seconds: now() - started, cpuSeconds: ProcessResources.cpuSeconds() - cpuBefore,
                           peakKB: ProcessResources.peakResidentKB() ?? 0, documents: urls.count, bytes: bytes)
    }
}
