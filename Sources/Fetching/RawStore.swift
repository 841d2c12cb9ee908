import Foundation

/// Every response body ever fetched, content-addressed, with a history of fetches per URL, so
/// that any run can be replayed offline and any row traced back to the bytes it came from.
///
/// Layout under `root`:
/// - `objects/<first 2 hex>/<sha256>`: a body, written once and never rewritten;
/// - `records/<sha256 of the URL>.jsonl`: one `FetchRecord` per fetch of that URL, oldest first.
///
/// URLs are only ever hashed into file names, so no URL can name a path outside the store.
///
/// The store is a cache, not a journal: writes are not fsynced (see `AtomicFile` for what a
/// crash leaves), because every object is checked against its sha256 when read. A damaged
/// object is removed on that read, so the document is fetched and written again rather than
/// missed on every later run.
public struct RawStore: Sendable {
    public let root: URL

    public init(root: URL) {
        self.root = root.standardizedFileURL
    }

    /// Keeps the body (unless an object with that hash exists) and appends the fetch's record.
    /// The body is hashed again unless this module computed the document's digest from it.
    @discardableResult
    public func store(_ document: FetchedDocument) throws -> FetchRecord {
        let record = FetchRecord(document)
        guard let object = objectFile(sha256: document.sha256),
              document.digestOrigin.computedFromBody || sha256Hex(document.body) == document.sha256
        else {
            throw FetchError(.store, url: document.url, "refusing to store a body whose sha256 does not match its bytes")
        }
        do {
            if !FileManager.default.fileExists(atPath: object.path) {
                try makeFolder(object.deletingLastPathComponent(), url: document.url)
                try AtomicFile.replaceContents(of: object, with: document.body)
            }
            let records = recordsFile(for: document.url)
            try makeFolder(records.deletingLastPathComponent(), url: document.url)
            try AtomicFile.append(try FetchRecord.encodeLine(record), to: records)
        } catch let failure as FileFailure {
            throw FetchError(.store, url: document.url, "raw store: \(failure)")
        } catch let error as EncodingError {
            throw FetchError(.store, url: document.url, "raw store: cannot encode the record: \(error)")
        }
        return record
    }

    /// Every stored fetch of `url`, oldest first. A line torn by a crash mid-append is skipped.
    public func records(for url: String) throws -> [FetchRecord] {
        let file = recordsFile(for: url)
        guard FileManager.default.fileExists(atPath: file.path) else { return [] }
        let contents: Data
        do {
            contents = try Data(contentsOf: file)
        } catch {
            throw FetchError(.store, url: url, "raw store: cannot read \(file.path): \(error.localizedDescription)")
        }
        return contents.split(separator: UInt8(ascii: "\n")).compactMap { line in
            guard let record = try? FetchRecord.decodeLine(Data(line)), record.url == url else { return nil }
            return record
        }
    }

    public func latestRecord(for url: String) throws -> FetchRecord? {
        try records(for: url).last
    }

    /// The bytes of a record, checked against its hash so a damaged object is never served; the
    /// damaged object is removed, so that storing the document again rewrites it.
    public func body(of record: FetchRecord) throws -> Data {
        guard let object = objectFile(sha256: record.sha256) else {
            throw FetchError(.store, url: record.url, "raw store: the record's sha256 is not 64 hex digits")
        }
        let body: Data
        do {
            body = try Data(contentsOf: object)
        } catch {
            throw FetchError(.store, url: record.url, "raw store: cannot read \(object.path): \(error.localizedDescription)")
        }
        guard sha256Hex(body) == record.sha256 else {
            try? FileManager.default.removeItem(at: object)
            throw FetchError(.store, url: record.url, "raw store: \(object.path) no longer matches its sha256")
        }
        return body
    }

    /// The most recent fetch of `url` as a document, or nil when the store has never seen it.
    public func latestDocument(for url: String) throws -> FetchedDocument? {
        guard let record = try latestRecord(for: url) else { return nil }
        var document = FetchedDocument(
            url: record.url, status: record.status, headers: record.headers, body: try body(of: record),
            charset: record.charset, sha256: record.sha256, fetchedAt: record.fetchedAt,
            notModified: record.notModified)
        document.digestOrigin = DigestOrigin(computedFromBody: true)
        return document
    }

    /// Nil for anything but a lower-case hex digest: a record read from disk cannot steer a path.
    func objectFile(sha256: String) -> URL? {
        guard sha256.utf8.count == 64, sha256.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) })
        else { return nil }
        return root.appendingPathComponent("objects", isDirectory: true)
            .appendingPathComponent(String(sha256.prefix(2)), isDirectory: true)
            .appendingPathComponent(sha256)
    }

    func recordsFile(for url: String) -> URL {
        root.appendingPathComponent("records", isDirectory: true)
            .appendingPathComponent(sha256Hex(Data(url.utf8)) + ".jsonl")
    }

    private func makeFolder(_ folder: URL, url: String) throws {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw FetchError(.store, url: url, "raw store: cannot create \(folder.path): \(error.localizedDescription)")
        }
    }
}
