import Basics
import FoodModel
import Foundation
import Yams

/// A YAML node with the key path that led to it, so that errors can say where they are.
public struct YAMLValue {
    public let node: Node
    public let key: String
    public let file: URL

    public func error(_ message: String) -> Failure {
        Failure.pipelineFile(message, file: file.path, line: node.mark?.line, column: node.mark?.column, key: key)
    }

    public func string() throws -> String {
        guard case .scalar(let scalar) = node else { throw error("expected text, found \(kind)") }
        let text = scalar.string.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { throw error("must not be empty") }
        return text
    }

    public func int() throws -> Int {
        guard let value = Int(try string()) else { throw error("expected a whole number, found \"\(try string())\"") }
        return value
    }

    /// A whole number within `range`, so that no value in a file can make arithmetic trap.
    public func int(in range: ClosedRange<Int>) throws -> Int {
        let value = try int()
        guard range.contains(value) else {
            throw error("must be between \(range.lowerBound) and \(range.upperBound), found \(value)")
        }
        return value
    }

    /// A finite number within `range` (`inf` and `nan` are refused).
    public func double(in range: ClosedRange<Double>) throws -> Double {
        let value = try double()
        guard value.isFinite, range.contains(value) else {
            func plain(_ number: Double) -> String {
                number == number.rounded() ? String(Int(number)) : String(number)
            }
            throw error("must be a number between \(plain(range.lowerBound)) and \(plain(range.upperBound)), found \(try string())")
        }
        return value
    }

    public func double() throws -> Double {
        guard let value = Double(try string()) else { throw error("expected a number, found \"\(try string())\"") }
        return value
    }

    public func bool() throws -> Bool {
        switch try string().lowercased() {
        case "true", "yes", "on": return true
        case "false", "no", "off": return false
        case let other: throw error("expected true or false, found \"\(other)\"")
        }
    }

    public func date() throws -> ServiceDate {
        let text = try string()
        guard let date = ServiceDate(text) else {
            throw error("expected a date as YYYY-MM-DD, found \"\(text)\"")
        }
        return date
    }

    public func sequence() throws -> [YAMLValue] {
        guard case .sequence(let items) = node else { throw error("expected a list, found \(kind)") }
        return items.enumerated().map { YAMLValue(node: $1, key: "\(key)[\($0)]", file: file) }
    }

    private var kind: String {
        switch node {
        case .scalar(let scalar): "\"\(scalar.string)\""
        case .mapping: "a mapping"
        case .sequence: "a list"
        case .alias: "an alias"
        }
    }
}

/// A YAML mapping whose keys are checked against the ones a section allows.
public struct YAMLMapping {
    public let node: YAMLValue
    private let pairs: [(key: String, value: Node, mark: Mark?)]

    public init(_ node: Node, key: String, file: URL) throws {
        try self.init(YAMLValue(node: node, key: key, file: file))
    }

    public init(_ value: YAMLValue) throws {
        guard case .mapping(let mapping) = value.node else {
            throw value.error("expected a mapping of keys to values")
        }
        node = value
        pairs = mapping.map { ($0.key.string ?? "", $0.value, $0.key.mark) }
    }

    /// The keys present, in file order.
    public var keys: [String] { pairs.map(\.key) }

    /// The keys and their values, in file order: one pass, where looking each key up again would
    /// walk the mapping once per key (a synonym table holds hundreds).
    public var entries: [(key: String, value: YAMLValue)] {
        pairs.map { ($0.key, YAMLValue(node: $0.value, key: path($0.key), file: node.file)) }
    }

    public func allowOnly(_ keys: Set<String>) throws {
        for pair in pairs where !keys.contains(pair.key) {
            throw Failure.pipelineFile("unknown key; allowed here: \(keys.sorted().joined(separator: ", "))",
                                       file: node.file.path, line: pair.mark?.line, column: pair.mark?.column,
                                       key: path(pair.key))
        }
    }

    public func optional(_ key: String) throws -> YAMLValue? {
        pairs.first { $0.key == key }.map { YAMLValue(node: $0.value, key: path(key), file: node.file) }
    }

    public func required(_ key: String) throws -> YAMLValue {
        guard let value = try optional(key) else {
            throw Failure.pipelineFile("is required", file: node.file.path, line: node.node.mark?.line,
                                       column: node.node.mark?.column, key: path(key))
        }
        return value
    }

    private func path(_ child: String) -> String {
        node.key.isEmpty ? child : "\(node.key).\(child)"
    }
}
