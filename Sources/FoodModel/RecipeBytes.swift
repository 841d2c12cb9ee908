import Foundation

/// Recipes as the spool and the intake keep them: each field in a fixed order, text as its UTF-8 with a length,
/// numbers as their 8 bytes (little endian), an absent value as one byte. A dump of a million
/// recipes passes through this once each way, and the generic coders spent more time on keys
/// and containers than on the values (a third of the run, perf). `RecipeSpoolTests` round-trips
/// every real meal of the dump, so a field this forgot would fail there.
public enum RecipeBytes {
    public static func encode(_ recipes: [Recipe]) -> Data {
        var output = Output()
        output.put(recipes.count)
        for recipe in recipes { output.put(recipe) }
        return Data(output.bytes)
    }

    /// Throws `Damaged` for bytes this did not write.
    public static func decode(_ data: Data) throws -> [Recipe] {
        try data.withUnsafeBytes { buffer in
            var input = Input(bytes: buffer)
            let count = try input.int()
            guard count >= 0, count <= buffer.count else { throw Damaged() }
            var recipes: [Recipe] = []
            recipes.reserveCapacity(count)
            for _ in 0..<count { recipes.append(try input.recipe()) }
            guard input.isAtEnd else { throw Damaged() }
            return recipes
        }
    }

    public struct Damaged: Error {}

    private struct Output {
        var bytes: [UInt8] = []

        mutating func put(_ recipe: Recipe) {
            put(recipe.id.source)
            put(recipe.id.id)
            put(recipe.name)
            put(recipe.alternateName)
            put(recipe.category)
            put(recipe.area)
            put(recipe.steps)
            put(recipe.thumbnailURL)
            put(recipe.youtubeURL)
            put(recipe.sourceURL)
            put(recipe.tags)
            put(recipe.ingredients.count)
            for line in recipe.ingredients {
                put(line.position)
                put(line.ingredient.key)
                put(line.ingredient.name)
                let measure = line.measure
                put(measure.raw)
                put(measure.kind.rawValue)
                put(measure.quantity)
                put(measure.maximum)
                put(measure.unit)
                put(measure.unitSystem)
                put(measure.confidence.bitPattern)
            }
            put(recipe.modifiedAt)
        }

        mutating func put(_ value: Int) {
            withUnsafeBytes(of: Int64(value).littleEndian) { bytes.append(contentsOf: $0) }
        }

        mutating func put(_ value: UInt64) {
            withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
        }

        mutating func put(_ text: String) {
            put(text.utf8.count)
            bytes.append(contentsOf: text.utf8)
        }

        mutating func put(_ text: String?) {
            guard let text else { return bytes.append(0) }
            bytes.append(1)
            put(text)
        }

        mutating func put(_ texts: [String]) {
            put(texts.count)
            for text in texts { put(text) }
        }

        mutating func put(_ value: Rational?) {
            guard let value else { return bytes.append(0) }
            bytes.append(1)
            put(value.numerator)
            put(value.denominator)
        }
    }

    private struct Input {
        let bytes: UnsafeRawBufferPointer
        var position = 0

        var isAtEnd: Bool { position == bytes.count }

        mutating func recipe() throws -> Recipe {
            let id = RecipeID(source: try string(), id: try string())
            var recipe = Recipe(id: id, name: try string(), alternateName: try optionalString(),
                                category: try optionalString(), area: try optionalString(), steps: try strings(),
                                thumbnailURL: try optionalString(), youtubeURL: try optionalString(),
                                sourceURL: try optionalString(), tags: try strings())
            let lines = try int()
            guard lines >= 0, lines <= bytes.count - position else { throw Damaged() }
            recipe.ingredients.reserveCapacity(lines)
            for _ in 0..<lines {
                let position = try int()
                let ingredient = Ingredient(key: try string(), name: try string())
                let raw = try optionalString()
                guard let kind = Measure.Kind(rawValue: try string()) else { throw Damaged() }
                let measure = Measure(raw: raw, kind: kind, quantity: try rational(), maximum: try rational(),
                                      unit: try optionalString(), unitSystem: try optionalString(),
                                      confidence: Double(bitPattern: try uint64()))
                recipe.ingredients.append(RecipeIngredient(position: position, ingredient: ingredient, measure: measure))
            }
            recipe.modifiedAt = try optionalString()
            return recipe
        }

        mutating func uint64() throws -> UInt64 {
            guard bytes.count - position >= 8 else { throw Damaged() }
            let value = bytes.loadUnaligned(fromByteOffset: position, as: UInt64.self)
            position += 8
            return UInt64(littleEndian: value)
        }

        mutating func int() throws -> Int {
            Int(Int64(bitPattern: try uint64()))
        }

        mutating func flag() throws -> Bool {
            guard position < bytes.count else { throw Damaged() }
            let value = bytes[position]
            position += 1
            guard value <= 1 else { throw Damaged() }
            return value == 1
        }

        mutating func string() throws -> String {
            let length = try int()
            guard length >= 0, length <= bytes.count - position else { throw Damaged() }
            let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[position..<(position + length)]),
                              as: UTF8.self)
            position += length
            return text
        }

        mutating func optionalString() throws -> String? {
            try flag() ? try string() : nil
        }

        mutating func strings() throws -> [String] {
            let count = try int()
            guard count >= 0, count <= bytes.count - position else { throw Damaged() }
            return try (0..<count).map { _ in try string() }
        }

        mutating func rational() throws -> Rational? {
            guard try flag() else { return nil }
            guard let value = Rational(try int(), try int()) else { throw Damaged() }
            return value
        }
    }
}
