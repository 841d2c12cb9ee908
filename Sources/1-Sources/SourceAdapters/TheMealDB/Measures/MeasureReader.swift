import FoodModel

/// What a measure was read as, before it becomes a `Measure`.
struct MeasureReading: Hashable, Sendable {
    var kind: Measure.Kind
    var quantity: Rational?
    var maximum: Rational?
    var unit: MeasureUnit?
    var confidence: Double
}

/// How sure a reading is, in one place so that the scale stays consistent.
enum MeasureConfidence {
    /// A number with a known unit or a bare number, and nothing else.
    static let clean = 1.0
    /// Clean, but followed by words that were not read ("2 tbs chopped"), or a number in words.
    static let trailingText = 0.9
    /// A parenthesised equivalent, which may be the whole amount or each item's.
    static let parenthesised = 0.9
    /// A misspelt unit, "Juice of 1/2", or a per-item size multiplied out ("2 x 400g").
    static let interpreted = 0.8
    /// A length given as each item's size ("3 x 7.5cm"): only the count is sure.
    static let sizeOnly = 0.7
    /// Only a preparation was written ("Chopped"), read as no amount.
    static let preparationOnly = 0.6
    /// An ordinal read as a fraction ("3rd" of a cucumber).
    static let ordinal = 0.5
    static let none = 0.0
}

/// A recursive-descent reader over a measure's tokens; every step checks bounds, so any token
/// sequence gives a reading.
struct MeasureReader {
    private let tokens: [MeasureToken]
    private var position = 0

    init(tokens: [MeasureToken]) {
        self.tokens = tokens
    }

    private struct Amount {
        var value: Rational
        var maximum: Rational?
        var inWords: Bool
    }

    mutating func read() -> MeasureReading {
        if let amount = readAmount() { return readMeasured(amount) }
        if let reading = readPartOfFruit() { return reading }
        return readWithoutAmount()
    }

    // MARK: - Token access

    private func kind(at index: Int) -> MeasureToken.Kind? {
        tokens.indices.contains(index) ? tokens[index].kind : nil
    }

    private func word(at index: Int) -> String? {
        if case let .word(text)? = kind(at: index) { return text }
        return nil
    }

    private func symbol(at index: Int) -> Character? {
        if case let .symbol(character)? = kind(at: index) { return character }
        return nil
    }

    private func isSpaced(_ index: Int) -> Bool {
        tokens.indices.contains(index) && tokens[index].spaced
    }

    private func number(at index: Int, allowingWords: Bool) -> (value: Rational, isFraction: Bool, inWords: Bool)? {
        switch kind(at: index) {
        case let .number(value, isFraction)?:
            return (value, isFraction, false)
        case let .word(text)? where allowingWords:
            guard let value = MeasureVocabulary.numberWords[text] else { return nil }
            return (value, value.denominator != 1, true)
        default:
            return nil
        }
    }

    private var words: [String] {
        tokens.compactMap { token in
            if case let .word(text) = token.kind { return text }
            return nil
        }
    }

    // MARK: - Amounts

    /// A number, mixed number ("1 1/2", "2-1/2", "1½") or range ("2-3", "1 to 2").
    private mutating func readAmount() -> Amount? {
        guard let first = number(at: position, allowingWords: true) else { return nil }
        var index = position + 1
        var value = first.value
        if first.value.denominator == 1, !first.inWords {
            if let part = number(at: index, allowingWords: false), part.isFraction,
               part.value.isProperFraction, let mixed = value.adding(part.value) {
                value = mixed
                index += 1
            } else if symbol(at: index) == "-", let part = number(at: index + 1, allowingWords: false),
                      part.isFraction, part.value.isProperFraction, let mixed = value.adding(part.value) {
                value = mixed
                index += 2
            }
        }
        var maximum: Rational?
        if symbol(at: index) == "-" || word(at: index) == "to",
           let upper = number(at: index + 1, allowingWords: false),
           upper.value.doubleValue > value.doubleValue,
           !(symbol(at: index + 2) == "-" && !isSpaced(index + 2) && word(at: index + 3) != nil) {
            maximum = upper.value
            index += 2
        }
        position = index
        return Amount(value: value, maximum: maximum, inWords: first.inWords)
    }

    /// A unit at the current position, allowing a hyphen ("8-ounce") and size words
    /// ("4 thick slices") before it. Moves past it only when one is found.
    private mutating func readUnit() -> (unit: MeasureUnit, misspelt: Bool)? {
        var start = position
        if symbol(at: start) == "-", !isSpaced(start) { start += 1 }
        var afterSizes = start
        while let text = word(at: afterSizes), MeasureVocabulary.sizeAdjectives.contains(text) {
            afterSizes += 1
        }
        for candidate in Set([start, afterSizes]).sorted() {
            if let first = word(at: candidate), let second = word(at: candidate + 1),
               let unit = MeasureUnits.unit(named: first, second) {
                position = candidate + 2
                return (unit, false)
            }
            if let text = word(at: candidate), let found = MeasureUnits.unit(named: text) {
                position = candidate + 1
                return found
            }
        }
        return nil
    }

    /// An amount with a unit, restoring the position when there is none.
    private mutating func readAmountWithUnit() -> (amount: Amount, unit: MeasureUnit)? {
        let saved = position
        if let amount = readAmount(), let found = readUnit() { return (amount, found.unit) }
        position = saved
        return nil
    }

    // MARK: - Readings

    private mutating func readMeasured(_ amount: Amount) -> MeasureReading {
        var value = amount.value
        var maximum = amount.maximum
        var confidence = amount.inWords ? MeasureConfidence.trailingText : MeasureConfidence.clean

        if let suffix = word(at: position), !isSpaced(position),
           MeasureVocabulary.ordinalSuffixes.contains(suffix), maximum == nil,
           value.denominator == 1, value.numerator >= 2, let part = Rational(1, value.numerator) {
            position += 1
            return MeasureReading(kind: .count, quantity: part, unit: nil,
                                  confidence: MeasureConfidence.ordinal)
        }

        var unit: MeasureUnit?
        if let found = readUnit() {
            unit = found.unit
            if found.misspelt { confidence = min(confidence, MeasureConfidence.interpreted) }
            if found.unit.isMassOrVolume { skipContainer() }
        } else if let size = readSizeOfEach() {
            if size.unit.isMassOrVolume, let total = value.multiplied(by: size.amount.value) {
                value = total
                maximum = maximum.flatMap { $0.multiplied(by: size.amount.value) }
                unit = size.unit
                confidence = min(confidence, MeasureConfidence.interpreted)
            } else {
                confidence = min(confidence, MeasureConfidence.sizeOnly)
            }
            skipContainer()
        }

        if let equivalent = readEquivalent(),
           equivalent.unit.isMetricMassOrVolume, unit?.isMetricMassOrVolume != true {
            value = equivalent.amount.value
            maximum = equivalent.amount.maximum
            unit = equivalent.unit
            confidence = min(confidence, equivalent.confidence)
        }

        if position < tokens.count { confidence = min(confidence, MeasureConfidence.trailingText) }
        let kind: Measure.Kind = (unit == nil || unit?.dimension == .item) ? .count : .quantity
        return MeasureReading(kind: kind, quantity: value, maximum: maximum, unit: unit,
                              confidence: confidence)
    }

    /// The size of each item after a count: "x 400g", "400g" ("3 400g Cans"), "– 14-ounce".
    private mutating func readSizeOfEach() -> (amount: Amount, unit: MeasureUnit)? {
        let saved = position
        if word(at: position) == "x" || symbol(at: position) == "-" { position += 1 }
        if let size = readAmountWithUnit(), size.unit.isMassOrVolume || size.unit.dimension == .length {
            return size
        }
        position = saved
        return nil
    }

    /// Steps over "tins" in "2 x 400g tins" or "jar" in "14 oz jar": the size already says how much.
    private mutating func skipContainer() {
        let saved = position
        if let container = readUnit(), container.unit.dimension == .item { return }
        position = saved
    }

    /// A second writing of the same amount: "/6oz" after "175g", or "(55 grams)".
    private mutating func readEquivalent() -> (amount: Amount, unit: MeasureUnit, confidence: Double)? {
        let saved = position
        if symbol(at: position) == "/" {
            position += 1
            if let found = readAmountWithUnit() {
                return (found.amount, found.unit, MeasureConfidence.clean)
            }
        } else if symbol(at: position) == "(" {
            position += 1
            if let found = readAmountWithUnit(), symbol(at: position) == ")" {
                position += 1
                return (found.amount, found.unit, MeasureConfidence.parenthesised)
            }
        }
        position = saved
        return nil
    }

    /// "Juice of 1/2", "Zest and juice of 1", "Juice/zest of one".
    private func readPartOfFruit() -> MeasureReading? {
        guard let ofIndex = tokens.indices.first(where: { word(at: $0) == "of" }),
              let amount = number(at: ofIndex + 1, allowingWords: true) else { return nil }
        let before = Set((0..<ofIndex).compactMap { word(at: $0) })
        let unit: MeasureUnit
        switch (before.contains("juice"), before.contains("zest")) {
        case (true, true): unit = .juiceAndZest
        case (true, false): unit = .juice
        case (false, true): unit = .zest
        case (false, false): return nil
        }
        return MeasureReading(kind: .count, quantity: amount.value, unit: unit,
                              confidence: MeasureConfidence.interpreted)
    }

    /// No number: a kitchen measure or item word ("Pinch", "Small bunch"), a purpose
    /// ("To taste", "For frying"), a preparation alone ("Chopped"), or text nothing was read from.
    private func readWithoutAmount() -> MeasureReading {
        let words = self.words
        for text in words {
            if let found = MeasureUnits.unit(named: text) {
                return MeasureReading(
                    kind: .unquantified, unit: found.unit,
                    confidence: found.misspelt ? MeasureConfidence.interpreted : MeasureConfidence.clean)
            }
        }
        if words.contains(where: MeasureVocabulary.purposeWords.contains) {
            return MeasureReading(kind: .unquantified, confidence: MeasureConfidence.clean)
        }
        if !words.isEmpty, words.count == tokens.count,
           words.allSatisfy(MeasureVocabulary.preparationWords.contains) {
            return MeasureReading(kind: .unquantified, confidence: MeasureConfidence.preparationOnly)
        }
        return MeasureReading(kind: .unparsed, confidence: MeasureConfidence.none)
    }
}
