import Basics
import CLibXML2
import Foundation

/// A parsed HTML page: owns libxml2's tree and frees it when the last reference goes.
///
/// Not `Sendable`, on purpose: libxml2 trees are not safe to share between threads, so a
/// document is created, queried and dropped inside one task, and only the Swift values read
/// from it (strings, dictionaries, model values) leave that task. Different documents may be
/// parsed and queried on different threads at the same time.
public final class HTMLDocument {
    let pointer: htmlDocPtr
    /// The URL or file the bytes came from, used in every error.
    public let location: String
    /// One XPath context and every expression compiled so far, kept for the document's life:
    /// a menu page asks the same few questions of each of its hundreds of items, and a new
    /// context plus a fresh compile per question cost more than the answers.
    private var xpathContext: xmlXPathContextPtr?
    private var compiledExpressions: [String: xmlXPathCompExprPtr] = [:]

    /// Recover from broken markup (real menu pages are rarely valid), never touch the network
    /// for a DTD or entity, and keep libxml2 from printing to standard error: problems surface
    /// as values or thrown errors instead. `HTML_PARSE_HUGE` stays off so that a hostile page
    /// cannot lift libxml2's limits on depth and text size. `HTML_PARSE_COMPACT` keeps short
    /// text inside its node instead of a separate allocation (pages are mostly short text
    /// between tags); the tree is read-only here, which is what that option asks.
    private static let options = Int32(bitPattern:
        HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NONET.rawValue
            | HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue | HTML_PARSE_COMPACT.rawValue)

    /// Parses `data` as HTML.
    ///
    /// - Parameter charset: the charset the HTTP response declared. It wins over the page's own
    ///   `<meta>`, as browsers do; when nil, or when libxml2 does not know the name, the page's
    ///   declaration (or libxml2's detection) decides.
    /// - Throws: `Failure` for empty input, input too large for libxml2's `int` sizes, or bytes
    ///   libxml2 refuses outright.
    public init(parsing data: Data, location: String, charset: String? = nil) throws {
        ensureLibXML2Initialised()
        guard !data.isEmpty else {
            throw Failure.badInput("the document is empty (0 bytes)", at: location)
        }
        guard let size = Int32(exactly: data.count) else {
            throw Failure.badInput("the document is too large to parse (\(data.count) bytes)", at: location)
        }
        let parsed: htmlDocPtr? = data.withUnsafeBytes { bytes in
            htmlReadMemory(bytes.baseAddress?.assumingMemoryBound(to: CChar.self), size, location,
                           charset, Self.options)
        }
        guard let parsed else {
            throw Failure.badInput("libxml2 could not read the bytes as HTML", at: location)
        }
        pointer = parsed
        self.location = location
    }

    deinit {
        for expression in compiledExpressions.values {
            xmlXPathFreeCompExpr(expression)
        }
        if let xpathContext {
            xmlXPathFreeContext(xpathContext)
        }
        xmlFreeDoc(pointer)
    }

    /// The top element (`html`), the start of a walk over the whole page; nil for an empty one.
    public var rootElement: HTMLNode? {
        xmlDocGetRootElement(pointer).map { HTMLNode(document: self, pointer: $0) }
    }

    /// Every node the XPath expression selects from the document root, in document order.
    public func select(_ xpath: String) throws -> [HTMLNode] {
        try evaluate(xpath, relativeTo: nil)
    }

    /// The first node the expression selects, or nil.
    public func first(_ xpath: String) throws -> HTMLNode? {
        try select(xpath).first
    }

    /// The normalized text of every node selected: handy for `.../@alt` or `.../text()`.
    public func texts(_ xpath: String) throws -> [String] {
        try select(xpath).map(\.text)
    }

    /// Runs one XPath query with the document's context, compiling the expression on first use.
    /// The result object is freed before returning; the returned nodes borrow from the tree,
    /// which they keep alive through `self`.
    func evaluate(_ xpath: String, relativeTo node: xmlNodePtr?) throws -> [HTMLNode] {
        let context = try reusableContext()
        // Evaluation leaves the context as it found it, but a failed one may not: every query
        // starts from the state a new context has, at the root or at `node`.
        context.pointee.node = node
        context.pointee.contextSize = -1
        context.pointee.proximityPosition = -1
        xmlResetError(&context.pointee.lastError)
        let failure = { (stage: String) -> Failure in
            let reason = context.pointee.lastError.message.map { String(cString: $0) }
            return Failure.badInput("XPath \(xpath) failed: \(reason?.whitespaceNormalized ?? stage)", at: self.location)
        }
        let expression: xmlXPathCompExprPtr
        if let compiled = compiledExpressions[xpath] {
            expression = compiled
        } else {
            guard let compiled = xmlXPathCtxtCompile(context, xpath) else { throw failure("invalid expression") }
            compiledExpressions[xpath] = compiled
            expression = compiled
        }
        guard let result = xmlXPathCompiledEval(expression, context) else { throw failure("evaluation failed") }
        defer { xmlXPathFreeObject(result) }
        guard result.pointee.type == XPATH_NODESET else {
            throw Failure.badInput("XPath \(xpath) does not select nodes", at: location)
        }
        guard let set = result.pointee.nodesetval, let table = set.pointee.nodeTab else {
            return []
        }
        return (0..<Int(set.pointee.nodeNr)).compactMap { index in
            table[index].map { HTMLNode(document: self, pointer: $0) }
        }
    }

    private func reusableContext() throws -> xmlXPathContextPtr {
        if let xpathContext { return xpathContext }
        guard let context = xmlXPathNewContext(pointer) else {
            throw Failure.badInput("libxml2 could not create an XPath context", at: location)
        }
        // A per-context handler keeps XPath errors off standard error; the message is read
        // back from `lastError`.
        context.pointee.error = { _, _ in }
        xpathContext = context
        return context
    }
}

@available(*, unavailable, message: "libxml2 trees must stay in the task that parsed them")
extension HTMLDocument: Sendable {}
