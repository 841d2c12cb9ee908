import CLibXML2

/// One node of a parsed document (an element, an attribute or a text node), read as Swift values.
///
/// It keeps its document alive, so a node never outlives the tree it points into. Like the
/// document, it stays in the task that parsed the page.
public struct HTMLNode {
    let document: HTMLDocument
    let pointer: xmlNodePtr

    /// The element or attribute name, lower-cased by libxml2's HTML parser (`li`, `href`);
    /// `text` for text nodes.
    public var name: String {
        borrowXMLString(pointer.pointee.name) ?? ""
    }

    public var isElement: Bool {
        pointer.pointee.type == XML_ELEMENT_NODE
    }

    /// The attribute's value with entities decoded, or nil when the element lacks it.
    public func attribute(_ name: String) -> String? {
        takeXMLString(xmlGetProp(pointer, name))
    }

    /// Every attribute of an element, by name; empty for other nodes.
    public var attributes: [String: String] {
        guard isElement else { return [:] }
        var result: [String: String] = [:]
        var attribute = pointer.pointee.properties
        while let current = attribute {
            if let name = borrowXMLString(current.pointee.name) {
                let value = current.withMemoryRebound(to: xmlNode.self, capacity: 1) { node in
                    takeXMLString(xmlNodeGetContent(node))
                }
                result[name] = value ?? ""
            }
            attribute = current.pointee.next
        }
        return result
    }

    /// All the text inside the node, entities decoded, whitespace runs collapsed and trimmed.
    /// For an attribute node this is its value.
    public var text: String {
        (takeXMLString(xmlNodeGetContent(pointer)) ?? "").whitespaceNormalized
    }

    /// Only the text directly inside this element, not inside its children: a section's
    /// name in `<li>The Front Burner<ul>...</ul></li>`.
    public var ownText: String {
        var pieces: [String] = []
        var child = pointer.pointee.children
        while let current = child {
            if current.pointee.type == XML_TEXT_NODE || current.pointee.type == XML_CDATA_SECTION_NODE,
               let content = takeXMLString(xmlNodeGetContent(current)) {
                pieces.append(content)
            }
            child = current.pointee.next
        }
        return pieces.joined(separator: " ").whitespaceNormalized
    }

    /// True for an element with this tag name (lower case, as libxml2's HTML parser gives it).
    public func isElement(named tag: String) -> Bool {
        guard isElement, let name = pointer.pointee.name else { return false }
        return tag.withCString { xmlStrEqual(name, UnsafeRawPointer($0).assumingMemoryBound(to: xmlChar.self)) != 0 }
    }

    /// True for an element whose `class` attribute lists `name` among its whitespace-separated
    /// classes, as `XPathPredicate.hasClass` selects. It reads the attribute where libxml2
    /// keeps it, without copying, since a walk over a page asks it of every element.
    public func hasClass(_ name: String) -> Bool {
        guard isElement, let property = xmlHasProp(pointer, "class") else { return false }
        guard let value = property.pointee.children, value.pointee.next == nil,
              value.pointee.type == XML_TEXT_NODE, let content = value.pointee.content
        else {
            return attribute("class")?.split(whereSeparator: \.isWhitespace).contains { $0 == name } ?? false
        }
        return ClassList(content).contains(name)
    }

    /// Visits every element below this node, in document order. Each visit receives the value
    /// the visit of its parent returned (`context` for this node's children) and returns the
    /// value for its own children, or nil to skip them: enough to know, on the way down,
    /// whether an element sits inside some other one, in one pass instead of a query each.
    public func forEachElement<Context>(below context: Context,
                                        _ visit: (HTMLNode, Context) throws -> Context?) rethrows {
        var child = pointer.pointee.children
        while let current = child {
            if current.pointee.type == XML_ELEMENT_NODE {
                let node = HTMLNode(document: document, pointer: current)
                if let inner = try visit(node, context) {
                    try node.forEachElement(below: inner, visit)
                }
            }
            child = current.pointee.next
        }
    }

    /// The text of the node as `texts(".//text()")` joined by spaces would give it, leaving out
    /// the subtrees of the elements `skip` picks (a label row's name without its printed
    /// percentage), read in one walk instead of an XPath query with an `ancestor` test per text
    /// node. Whitespace runs are collapsed and the ends trimmed.
    public func text(leavingOut skip: (HTMLNode) -> Bool) -> String {
        var pieces: [String] = []
        func collect(below node: xmlNodePtr) {
            var child = node.pointee.children
            while let current = child {
                switch current.pointee.type {
                case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                    if let content = borrowXMLString(current.pointee.content) { pieces.append(content) }
                case XML_ELEMENT_NODE:
                    if !skip(HTMLNode(document: document, pointer: current)) { collect(below: current) }
                default:
                    break
                }
                child = current.pointee.next
            }
        }
        collect(below: pointer)
        return pieces.joined(separator: " ").whitespaceNormalized
    }

    /// The first element after this one under the same parent with this tag and class: what
    /// `following-sibling::tag[XPathPredicate.hasClass(name)]` selects first.
    public func followingSibling(named tag: String, class name: String) -> HTMLNode? {
        var sibling = pointer.pointee.next
        while let current = sibling {
            let node = HTMLNode(document: document, pointer: current)
            if node.isElement(named: tag), node.hasClass(name) { return node }
            sibling = current.pointee.next
        }
        return nil
    }

    /// The elements below this node with this tag and class, in document order, at any depth:
    /// what `.//tag[XPathPredicate.hasClass(name)]` selects, found in one walk. `nested: false`
    /// does not look inside a match (for containers that never hold one another, such as a
    /// menu's stations), and `limit` stops the walk once that many are found.
    public func elements(named tag: String, class name: String, nested: Bool = true,
                         limit: Int = .max) -> [HTMLNode] {
        var found: [HTMLNode] = []
        forEachElement(below: ()) { element, _ in
            guard found.count < limit else { return nil }
            if element.isElement(named: tag), element.hasClass(name) {
                found.append(element)
                return nested ? () : nil
            }
            return ()
        }
        return found
    }

    /// Every node the expression selects with this node as the context (`.//li`, `./@href`).
    public func select(_ xpath: String) throws -> [HTMLNode] {
        try document.evaluate(xpath, relativeTo: pointer)
    }

    /// The first node the relative expression selects, or nil.
    public func first(_ xpath: String) throws -> HTMLNode? {
        try select(xpath).first
    }

    /// The normalized text of every node selected relative to this one.
    public func texts(_ xpath: String) throws -> [String] {
        try select(xpath).map(\.text)
    }
}

/// The classes of a `class` attribute, read in place from libxml2's bytes.
private struct ClassList {
    let bytes: UnsafePointer<xmlChar>

    init(_ bytes: UnsafePointer<xmlChar>) {
        self.bytes = bytes
    }

    func contains(_ name: String) -> Bool {
        var name = name
        return name.withUTF8 { wanted in
            var index = 0
            while bytes[index] != 0 {
                while Self.isSpace(bytes[index]) { index += 1 }
                let start = index
                while bytes[index] != 0 && !Self.isSpace(bytes[index]) { index += 1 }
                if index - start == wanted.count,
                   wanted.indices.allSatisfy({ bytes[start + $0] == wanted[$0] }) {
                    return true
                }
            }
            return false
        }
    }

    /// XML's whitespace, which is what `normalize-space` in the XPath form collapses.
    private static func isSpace(_ byte: xmlChar) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}

@available(*, unavailable, message: "libxml2 trees must stay in the task that parsed them")
extension HTMLNode: Sendable {}
