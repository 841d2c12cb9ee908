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

@available(*, unavailable, message: "libxml2 trees must stay in the task that parsed them")
extension HTMLNode: Sendable {}
