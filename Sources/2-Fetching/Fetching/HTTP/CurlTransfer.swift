import Basics
import CCurl
import Foundation

/// One GET as curl should perform it: the only input the curl layer sees.
struct TransferRequest: Sendable {
    var url: String
    /// Extra request header lines, `Name: value`.
    var headerLines: [String]
    var policy: HTTPPolicy
}

/// What one attempt produced, in Swift terms: curl's codes and pointers stop at this file.
struct TransferOutcome: Sendable {
    enum Failure: Sendable, Hashable {
        case timeout, tooLarge, truncated, tooManyRedirects, tlsVerification, invalidURL, cancelled, transport
    }

    /// Nil when curl completed the exchange, whatever the HTTP status.
    var failure: Failure?
    /// curl's own explanation of the failure (its error buffer), empty on success.
    var detail: String
    var status: Int
    /// Headers of the final response (after redirects), names lower-cased, repeats joined by ", ".
    var headers: [String: String]
    var body: Data

    static func failed(_ failure: Failure, _ detail: String) -> TransferOutcome {
        TransferOutcome(failure: failure, detail: detail, status: 0, headers: [:], body: Data())
    }
}

/// curl_global_init is not thread-safe and must precede every handle: a global `let` is
/// initialised exactly once, lazily and under a lock, by the Swift runtime.
private let curlGlobalInitResult: CURLcode = commissary_curl_global_init()

/// Runs transfers on libcurl easy handles taken from a pool, one handle per transfer at a time.
enum CurlTransfer {
    /// Performs the blocking `curl_easy_perform` on a thread of its own, so a slow server never
    /// holds one of the few threads of Swift's cooperative pool; cancelling the calling task
    /// aborts the transfer through curl's progress callback.
    static func perform(_ request: TransferRequest, handles: EasyHandlePool) async -> TransferOutcome {
        let cancellation = CancellationFlag()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let thread = Thread {
                    continuation.resume(returning: performBlocking(request, handles: handles, cancellation: cancellation))
                }
                thread.name = "commissary-curl"
                thread.start()
            }
        } onCancel: {
            cancellation.cancel()
        }
    }

    static func performBlocking(
        _ request: TransferRequest, handles: EasyHandlePool, cancellation: CancellationFlag
    ) -> TransferOutcome {
        guard curlGlobalInitResult == CURLE_OK else {
            return .failed(.transport, "libcurl could not be initialised: \(describe(curlGlobalInitResult))")
        }
        guard let handle = handles.take() else {
            return .failed(.transport, "libcurl could not create a transfer handle")
        }
        defer { handles.giveBack(handle) }

        let state = TransferState(limit: request.policy.maxBodyBytes, cancellation: cancellation)
        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        defer { errorBuffer.deallocate() }
        var headerList: UnsafeMutablePointer<curl_slist>?
        for line in request.headerLines {
            headerList = curl_slist_append(headerList, line)
        }
        defer { curl_slist_free_all(headerList) }

        return withExtendedLifetime(state) {
            if let rejected = configure(handle, request, state: state, errorBuffer: errorBuffer, headerList: headerList) {
                return .failed(.transport, "libcurl rejected the option \(rejected)")
            }
            let code = curl_easy_perform(handle)
            var status = 0
            _ = commissary_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
            let detail = code == CURLE_OK ? "" : errorText(errorBuffer, code)
            return TransferOutcome(
                failure: failure(for: code, state: state), detail: detail, status: status,
                headers: state.headers, body: state.body)
        }
    }

    /// Sets every option; returns the name of the first one curl refused, nil if all took.
    private static func configure(
        _ handle: UnsafeMutableRawPointer, _ request: TransferRequest, state: TransferState,
        errorBuffer: UnsafeMutablePointer<CChar>, headerList: UnsafeMutablePointer<curl_slist>?
    ) -> String? {
        let settings = requestSettings(handle, request, errorBuffer: errorBuffer, headerList: headerList)
            + callbackSettings(handle, state: state)
            + credentialSettings(handle, request.policy)
        return settings.first { $0.1 != CURLE_OK }.map { "CURLOPT_\($0.0) (\(describe($0.1)))" }
    }

    /// What is asked and how: the address, protocols, redirects, timeouts, encodings, TLS
    /// verification, the size cap and the headers; each option's name with what curl answered.
    private static func requestSettings(
        _ handle: UnsafeMutableRawPointer, _ request: TransferRequest,
        errorBuffer: UnsafeMutablePointer<CChar>, headerList: UnsafeMutablePointer<curl_slist>?
    ) -> [(String, CURLcode)] {
        let policy = request.policy
        return [
            ("URL", commissary_curl_setopt_string(handle, CURLOPT_URL, request.url)),
            // Signals cannot be used to time out name resolution on threads other than main.
            ("NOSIGNAL", commissary_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)),
            ("ERRORBUFFER", commissary_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer)),
            // A menu URL has no business leading to file://, ftp:// or anything but the web.
            ("PROTOCOLS_STR", commissary_curl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https")),
            ("REDIR_PROTOCOLS_STR", commissary_curl_setopt_string(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")),
            ("FOLLOWLOCATION", commissary_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 1)),
            ("MAXREDIRS", commissary_curl_setopt_long(handle, CURLOPT_MAXREDIRS, policy.maxRedirects)),
            ("CONNECTTIMEOUT_MS", commissary_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, policy.connectTimeout.curlMilliseconds)),
            ("TIMEOUT_MS", commissary_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, policy.totalTimeout.curlMilliseconds)),
            // An empty string offers every encoding this libcurl decodes (gzip, deflate, br, zstd).
            ("ACCEPT_ENCODING", commissary_curl_setopt_string(handle, CURLOPT_ACCEPT_ENCODING, "")),
            ("USERAGENT", commissary_curl_setopt_string(handle, CURLOPT_USERAGENT, policy.userAgent)),
            ("SSL_VERIFYPEER", commissary_curl_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 1)),
            ("SSL_VERIFYHOST", commissary_curl_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 2)),
            // Refuses a declared Content-Length over the cap before any byte is read; the write
            // callback enforces the same cap on bodies without one and on decoded bytes.
            ("MAXFILESIZE_LARGE", commissary_curl_setopt_off_t(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(policy.maxBodyBytes))),
            ("HTTPHEADER", commissary_curl_setopt_pointer(handle, CURLOPT_HTTPHEADER, headerList.map(UnsafeMutableRawPointer.init))),
        ]
    }

    /// The callbacks that hand the body and the header lines to `state` and stop a transfer
    /// whose run was cancelled; each option's name with what curl answered.
    private static func callbackSettings(_ handle: UnsafeMutableRawPointer, state: TransferState) -> [(String, CURLcode)] {
        let statePointer = Unmanaged.passUnretained(state).toOpaque()
        return [
            ("WRITEDATA", commissary_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, statePointer)),
            ("WRITEFUNCTION", commissary_curl_setopt_write_function(handle) { data, size, count, userdata in
                guard let userdata else { return 0 }
                let state = Unmanaged<TransferState>.fromOpaque(userdata).takeUnretainedValue()
                return state.receiveBody(data, length: size * count)
            }),
            ("HEADERDATA", commissary_curl_setopt_pointer(handle, CURLOPT_HEADERDATA, statePointer)),
            ("HEADERFUNCTION", commissary_curl_setopt_header_function(handle) { data, size, count, userdata in
                guard let userdata else { return 0 }
                let state = Unmanaged<TransferState>.fromOpaque(userdata).takeUnretainedValue()
                return state.receiveHeaderLine(data, length: size * count)
            }),
            ("NOPROGRESS", commissary_curl_setopt_long(handle, CURLOPT_NOPROGRESS, 0)),
            ("XFERINFODATA", commissary_curl_setopt_pointer(handle, CURLOPT_XFERINFODATA, statePointer)),
            ("XFERINFOFUNCTION", commissary_curl_setopt_xferinfo_function(handle) { userdata, _, _, _, _ in
                guard let userdata else { return 0 }
                let state = Unmanaged<TransferState>.fromOpaque(userdata).takeUnretainedValue()
                return state.cancellation.isCancelled ? 1 : 0
            }),
        ]
    }

    /// The site's credentials where the policy has them; none otherwise.
    private static func credentialSettings(_ handle: UnsafeMutableRawPointer, _ policy: HTTPPolicy) -> [(String, CURLcode)] {
        guard let credentials = policy.credentials else { return [] }
        // Basic authentication (curl's default scheme), sent to the request's own host only:
        // curl drops it on a redirect to another host unless told otherwise.
        return [("USERPWD", commissary_curl_setopt_string(handle, CURLOPT_USERPWD, credentials.userColonPassword))]
    }

    private static func failure(for code: CURLcode, state: TransferState) -> TransferOutcome.Failure? {
        switch code {
        case CURLE_OK: nil
        case CURLE_WRITE_ERROR where state.exceededLimit: .tooLarge
        case CURLE_FILESIZE_EXCEEDED: .tooLarge
        case CURLE_OPERATION_TIMEDOUT: .timeout
        case CURLE_PARTIAL_FILE: .truncated
        case CURLE_TOO_MANY_REDIRECTS: .tooManyRedirects
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR,
             CURLE_SSL_PINNEDPUBKEYNOTMATCH:
            .tlsVerification
        case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL: .invalidURL
        case CURLE_ABORTED_BY_CALLBACK where state.cancellation.isCancelled: .cancelled
        default: .transport
        }
    }

    private static func errorText(_ buffer: UnsafeMutablePointer<CChar>, _ code: CURLcode) -> String {
        let text = String(cString: buffer).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? describe(code) : text
    }

    private static func describe(_ code: CURLcode) -> String {
        "\(String(cString: curl_easy_strerror(code))) (curl error \(code.rawValue))"
    }
}

/// What the C callbacks write into during one transfer; only the transfer's thread touches it.
private final class TransferState {
    let limit: Int
    let cancellation: CancellationFlag
    private(set) var body = Data()
    private(set) var headers: [String: String] = [:]
    private(set) var exceededLimit = false

    init(limit: Int, cancellation: CancellationFlag) {
        self.limit = limit
        self.cancellation = cancellation
    }

    /// Returning fewer bytes than offered makes curl abort with CURLE_WRITE_ERROR.
    func receiveBody(_ data: UnsafeMutablePointer<CChar>?, length: Int) -> Int {
        guard let data else { return 0 }
        guard body.count + length <= limit else {
            exceededLimit = true
            return 0
        }
        body.append(UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: length)
        return length
    }

    /// curl hands over one complete header line per call, including every status line of a
    /// redirect chain: a new status line starts a new response, so only the last one is kept.
    func receiveHeaderLine(_ data: UnsafeMutablePointer<CChar>?, length: Int) -> Int {
        guard let data else { return 0 }
        let bytes = UnsafeRawBufferPointer(start: data, count: length)
        let line = String(decoding: bytes, as: UTF8.self)
        if line.hasPrefix("HTTP/") {
            headers = [:]
        } else if let colon = line.firstIndex(of: ":") {
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
            if !name.isEmpty {
                headers[name] = headers[name].map { "\($0), \(value)" } ?? value
            }
        }
        return length
    }
}

/// Set by the task that awaits a transfer, read by the thread that runs it.
final class CancellationFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelled = false

    func cancel() {
        lock.withLock { cancelled = true }
    }

    var isCancelled: Bool {
        lock.withLock { cancelled }
    }
}
