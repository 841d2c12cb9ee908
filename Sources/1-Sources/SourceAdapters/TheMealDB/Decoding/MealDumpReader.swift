import Basics
import FoodModel
import Foundation

/// Decodes a TheMealDB dump (a bare array of meals, or `{"meals": [...]}` with any other keys
/// around the list; `{"meals": null}` is no meals) as its bytes arrive, in pieces of any size.
///
/// A full dump can be a million meals, 2.4 GB: too much to hold as one `Data` for
/// `MealDB.decodeMeals`. The reader holds only the bytes of the meal still arriving (or of the
/// value of another key, which is skipped) and of the meals waiting to be decoded in the next
/// batch, and gives the same recipes as `decodeMeals` on the whole document, however it is
/// cut: meals are found by following the document's structure byte by byte, and decoded a
/// batch at a time, spread over every core, by the same `MealRecord` and `RecipeMapping`. A
/// batch is decoded while the reader finds the next one's meals and its caller sets the last
/// one's recipes aside: done in turn, finding the meals and setting them aside kept one core
/// busy and the other idle for about a fifth of the stage.
/// Errors are `Failure`s naming `location` and, for a bad meal, its place in the list
/// ("meal 12345") and the field.
///
/// Hand over the document with `read(_:)`, then call `finish()` once, at its end. After an
/// error the reader throws that error again on every call.
public struct MealDumpReader {
    private let location: String
    private let batchSize: Int
    private var place = Place.expecting(.document)
    /// Where the value being read ends, while `place` is inside one.
    private var scanner = JSONValueScanner()
    /// The key, or the value of a key other than `meals`, being read (meals go to `batch`).
    private var valueBytes: [UInt8] = []
    private var valueOffset = 0
    private var batch = MealBatch()
    /// The batch before `batch`, being decoded.
    private var decoding: WorkAhead<[Recipe]>?
    /// The meals handed to be decoded so far, returned or not.
    private var mealsHandedOn = 0
    private var isObject = false
    private var foundMeals = false
    /// The document's bytes before the chunk being read, for the offsets in errors.
    private var offset = 0
    private var failure: (any Error)?

    /// How many meals were returned so far.
    public private(set) var mealCount = 0

    /// `location` names the document in errors; meals are decoded `batchSize` at a time, so
    /// twice that many are held at most (a batch being decoded, the next one arriving). A
    /// thousand keeps a hundred thousand recipes at a year's memory; two thousand, with a batch
    /// decoded while the next arrives, put them a fifth above it.
    public init(location: String, batchSize: Int = 1_000) {
        precondition(batchSize > 0, "a batch holds at least one meal")
        self.location = location
        self.batchSize = batchSize
    }

    /// Hands over the next piece of the document, cut anywhere (inside a string or an escape
    /// too). Returns the meals decoded by now, in document order: often none, since meals wait
    /// until `batchSize` of them, or the end of the list, are in, and a batch is returned once
    /// the one after it is complete (or at `finish()`), having been decoded meanwhile.
    public mutating func read(_ chunk: Data) throws -> [Recipe] {
        try reporting { reader, recipes in
            try chunk.withUnsafeBytes { try reader.consume($0, into: &recipes) }
            reader.offset += chunk.count
        }
    }

    /// The end of the document: the meals still waiting, decoded. Throws if the document ended
    /// before its list (or object) closed, or holds no list of meals.
    public mutating func finish() throws -> [Recipe] {
        try reporting { reader, recipes in
            try reader.end()
            try reader.drain(into: &recipes)
        }
    }

    /// Runs one call's work and counts the meals it returns; an error is kept for later calls,
    /// since what follows a broken document means nothing.
    private mutating func reporting(_ work: (inout MealDumpReader, inout [Recipe]) throws -> Void) throws -> [Recipe] {
        if let failure { throw failure }
        var recipes: [Recipe] = []
        do {
            try work(&self, &recipes)
        } catch {
            // A bad meal still waiting comes before whatever was found wrong after it.
            var first = error
            do { try drain(into: &recipes) } catch { first = error }
            failure = first
            throw first
        }
        mealCount += recipes.count
        return recipes
    }

    private mutating func consume(_ bytes: UnsafeRawBufferPointer, into recipes: inout [Recipe]) throws {
        var index = 0
        while index < bytes.count {
            switch place {
            case let .inside(value):
                let end = scanner.scan(bytes, from: index)
                let part = UnsafeRawBufferPointer(rebasing: bytes[index..<(end ?? bytes.count)])
                if value == .meal { batch.append(part) } else { valueBytes.append(contentsOf: part) }
                guard let end else { return }
                index = end
                try close(value, into: &recipes)
            case let .expecting(expected):
                let byte = bytes[index]
                if JSONBytes.isWhitespace(byte), expected.allowsWhitespace {
                    index += 1
                    continue
                }
                if try take(byte, expected, at: offset + index, into: &recipes) { index += 1 }
            }
        }
    }

    /// Acts on a byte between values; returns false when it starts a value, which the scanner
    /// then reads from that byte.
    private mutating func take(_ byte: UInt8, _ expected: Expectation, at position: Int,
                               into recipes: inout [Recipe]) throws -> Bool {
        switch expected {
        case .document:
            switch byte {
            case UInt8(ascii: "["): place = .expecting(.mealOrClose)
            case UInt8(ascii: "{"):
                isObject = true
                place = .expecting(.keyOrClose)
            case Self.byteOrderMark[0] where position == 0: place = .expecting(.byteOrderMark(matched: 1))
            case _ where Self.scalarValueStarts.contains(byte):
                throw Failure.badInput(#"expected an object with a "meals" key or an array"#, at: location)
            default: throw Failure.badInput("not valid JSON, so not a TheMealDB response", at: location)
            }
        case let .byteOrderMark(matched):
            guard byte == Self.byteOrderMark[matched] else {
                throw Failure.badInput("not valid JSON, so not a TheMealDB response", at: location)
            }
            place = .expecting(matched + 1 == Self.byteOrderMark.count ? .document : .byteOrderMark(matched: matched + 1))
        case .keyOrClose:
            if byte == JSONBytes.quote { return start(.key, at: position) }
            guard byte == UInt8(ascii: "}") else { throw syntaxError(#"expected a key or "}""#, at: position) }
            try closeObject()
        case let .colon(isMeals):
            guard byte == UInt8(ascii: ":") else { throw syntaxError(#"expected ":" after a key"#, at: position) }
            place = .expecting(.value(isMeals: isMeals))
        case let .value(isMeals):
            if isMeals { foundMeals = true }
            if isMeals, byte == UInt8(ascii: "[") {
                place = .expecting(.mealOrClose)
            } else {
                guard JSONBytes.startsValue(byte) else { throw syntaxError("expected a value", at: position) }
                return start(isMeals ? .mealsNotAList : .otherValue, at: position)
            }
        case .memberEndOrClose:
            switch byte {
            case UInt8(ascii: ","): place = .expecting(.keyOrClose)
            case UInt8(ascii: "}"): try closeObject()
            default: throw syntaxError(#"expected "," or "}""#, at: position)
            }
        case .mealOrClose:
            if byte == UInt8(ascii: "]") {
                try closeList(into: &recipes)
            } else {
                guard JSONBytes.startsValue(byte) else { throw syntaxError(#"expected a meal or "]""#, at: position) }
                batch.beginMeal()
                return start(.meal, at: position)
            }
        case .mealEndOrClose:
            switch byte {
            case UInt8(ascii: ","): place = .expecting(.mealOrClose)
            case UInt8(ascii: "]"): try closeList(into: &recipes)
            default: throw syntaxError(#"expected "," or "]" after meal \#(mealsSeen())"#, at: position)
            }
        case .nothing:
            throw syntaxError("more after the end of the dump", at: position)
        }
        return true
    }

    private mutating func start(_ value: Value, at position: Int) -> Bool {
        scanner = JSONValueScanner()
        valueBytes.removeAll(keepingCapacity: true)
        valueOffset = position
        place = .inside(value)
        return false
    }

    /// A value has ended: the bytes read are whole.
    private mutating func close(_ value: Value, into recipes: inout [Recipe]) throws {
        switch value {
        case .key:
            guard let name = try? JSONDecoder().decode(String.self, from: Data(valueBytes)) else {
                throw syntaxError("a key is not a valid string", at: valueOffset)
            }
            // Only the first "meals" is the list, as for JSONDecoder; a later one is skipped.
            place = .expecting(.colon(isMeals: name == MealsField.name && !foundMeals))
        case .otherValue:
            // Skipped, but checked as decodeMeals would, so that a broken document fails here too.
            guard (try? JSONSerialization.jsonObject(with: Data(valueBytes), options: .fragmentsAllowed)) != nil else {
                throw syntaxError("a value is not valid JSON", at: valueOffset)
            }
            place = .expecting(.memberEndOrClose)
        case .mealsNotAList:
            guard valueBytes == Array("null".utf8) else {
                throw Failure.badInput(#""meals" is neither a list nor null"#, at: location)
            }
            place = .expecting(.memberEndOrClose)
        case .meal:
            batch.endMeal()
            place = .expecting(.mealEndOrClose)
            if batch.count >= batchSize { try flush(into: &recipes) }
        }
    }

    private mutating func closeObject() throws {
        guard foundMeals else { throw Failure.badInput(#"no "meals" key"#, at: location) }
        place = .expecting(.nothing)
    }

    private mutating func closeList(into recipes: inout [Recipe]) throws {
        try flush(into: &recipes)
        place = .expecting(isObject ? .memberEndOrClose : .nothing)
    }

    /// The batch being decoded, into `recipes`; then the meals waiting handed on to be decoded
    /// while the reader goes on. A bad meal in the first empties the second: it is what the
    /// reader says went wrong, since nothing before it is left to be reported.
    private mutating func flush(into recipes: inout [Recipe]) throws {
        if let earlier = decoding {
            decoding = nil
            do {
                recipes += try earlier.value()
            } catch {
                batch.discard()
                throw error
            }
        }
        let waiting = batch.count
        decoding = batch.decodeAhead(firstPosition: mealsHandedOn + 1, location: location)
        mealsHandedOn += waiting
    }

    /// Every meal read, decoded, into `recipes`: the batch being decoded, then those waiting.
    private mutating func drain(into recipes: inout [Recipe]) throws {
        try flush(into: &recipes)
        try flush(into: &recipes)
    }

    /// What the document's end leaves: nothing more to read, or an error saying where it stopped.
    private func end() throws {
        switch place {
        case .expecting(.nothing):
            return
        case .expecting(.document), .expecting(.byteOrderMark):
            throw Failure.badInput("empty, so not a TheMealDB response", at: location)
        case .inside(.meal):
            throw Failure.badInput("the dump ends inside meal \(mealsSeen() + 1)", at: location)
        case .expecting(.mealOrClose), .expecting(.mealEndOrClose):
            throw Failure.badInput("the dump ends before its list of meals closed (\(mealsSeen()) read)", at: location)
        case .expecting, .inside:
            throw Failure.badInput("the dump ends before its object closed", at: location)
        }
    }

    /// The whole meals found so far: handed on to be decoded, and waiting.
    private func mealsSeen() -> Int {
        mealsHandedOn + batch.count
    }

    private func syntaxError(_ what: String, at position: Int) -> Failure {
        Failure.badInput("not valid JSON at byte offset \(position): \(what)", at: location)
    }

    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
    /// How JSON values other than objects and arrays start: a document that is one is JSON,
    /// but not a dump.
    private static let scalarValueStarts = Array(#""-0123456789tfn"#.utf8)

    private enum Place {
        case expecting(Expectation)
        /// Inside a value, whose end `scanner` looks for.
        case inside(Value)
    }

    /// What may come next, between values (whitespace aside).
    private enum Expectation {
        case document
        /// A UTF-8 byte order mark, which JSONDecoder accepts before the document.
        case byteOrderMark(matched: Int)
        /// After `{` or a member's `,` (JSONDecoder accepts one trailing comma).
        case keyOrClose
        case colon(isMeals: Bool)
        case value(isMeals: Bool)
        case memberEndOrClose
        /// After `[` or a meal's `,`.
        case mealOrClose
        case mealEndOrClose
        /// After the document.
        case nothing

        var allowsWhitespace: Bool {
            if case .byteOrderMark = self { false } else { true }
        }
    }

    private enum Value {
        case key
        /// The value of a key other than `meals`, skipped.
        case otherValue
        /// The value of `meals` when it is not a list, which only `null` may be.
        case mealsNotAList
        case meal
    }
}
