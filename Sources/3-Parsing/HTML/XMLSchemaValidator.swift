import Basics
import CLibXML2
import Foundation

/// An XML Schema (XSD) read by libxml2, which checks XML documents against it: how the open
/// feeds' OpenMensa documents are held to OpenMensa's own schema.
///
/// Not `Sendable`, like `HTMLDocument`: libxml2's schema stays in the task that read it.
public final class XMLSchemaValidator {
    private let schema: xmlSchemaPtr

    /// Reads the schema at `file`; one that libxml2 cannot read fails naming the file.
    public init(file: URL) throws {
        ensureLibXML2Initialised()
        guard let context = xmlSchemaNewParserCtxt(file.path) else {
            throw Failure.badInput("libxml2 could not open the schema", at: file.path)
        }
        defer { xmlSchemaFreeParserCtxt(context) }
        guard let parsed = xmlSchemaParse(context) else {
            throw Failure.badInput("libxml2 could not read the file as an XML Schema", at: file.path)
        }
        schema = parsed
    }

    deinit {
        xmlSchemaFree(schema)
    }

    /// What is wrong with `data` as a document of this schema, one line each (`line N: message`);
    /// empty when it is valid. A document that is not well-formed XML is one problem.
    public func problems(in data: Data, location: String) throws -> [String] {
        guard let size = Int32(exactly: data.count) else {
            throw Failure.badInput("the document is too large to validate (\(data.count) bytes)", at: location)
        }
        let options = Int32(bitPattern: XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)
        let document = data.withUnsafeBytes { bytes in
            xmlReadMemory(bytes.baseAddress?.assumingMemoryBound(to: CChar.self), size, location, nil, options)
        }
        guard let document else {
            let reason = xmlGetLastError().flatMap { $0.pointee.message.map { String(cString: $0) } } ?? "unreadable"
            return ["not well-formed XML: \(reason.trimmingCharacters(in: .whitespacesAndNewlines))"]
        }
        defer { xmlFreeDoc(document) }
        guard let context = xmlSchemaNewValidCtxt(schema) else {
            throw Failure.badInput("libxml2 could not make a validation context", at: location)
        }
        defer { xmlSchemaFreeValidCtxt(context) }
        let collected = ProblemList()
        let box = Unmanaged.passUnretained(collected).toOpaque()
        // A structured handler, not a generic one (which is variadic): each error with its line.
        xmlSchemaSetValidStructuredErrors(context, { userData, error in
            guard let userData, let error else { return }
            let message = error.pointee.message.map { String(cString: $0) } ?? "invalid"
            Unmanaged<ProblemList>.fromOpaque(userData).takeUnretainedValue().lines
                .append("line \(error.pointee.line): \(message.trimmingCharacters(in: .whitespacesAndNewlines))")
        }, box)
        let result = xmlSchemaValidateDoc(context, document)
        if result != 0 && collected.lines.isEmpty { collected.lines.append("invalid (libxml2 status \(result))") }
        return collected.lines
    }
}

/// The problems a validation reports, gathered by the C callback through an opaque pointer.
private final class ProblemList {
    var lines: [String] = []
}

@available(*, unavailable, message: "libxml2's schema must stay in the task that read it")
extension XMLSchemaValidator: Sendable {}
