import FoodModel

/// Turns a wire record into the normalized `Recipe`.
enum RecipeMapping {
    static func recipe(from record: MealRecord) -> Recipe {
        Recipe(
            id: RecipeID(source: MealDB.sourceName, id: record.id),
            name: record.name,
            alternateName: record.alternateName,
            category: record.category,
            area: record.area,
            steps: steps(from: record.instructions),
            thumbnailURL: record.thumbnailURL,
            youtubeURL: record.youtubeURL,
            sourceURL: record.sourceURL,
            tags: tags(from: record.tags),
            ingredients: record.slots.map { slot in
                RecipeIngredient(position: slot.position, ingredient: Ingredient(name: slot.ingredient),
                                 measure: MeasureParser.parse(slot.measure))
            },
            modifiedAt: record.dateModified)
    }

    /// Instructions as steps: one per non-blank line, with `\r\n` and `\r` unified.
    ///
    /// Authors mark steps in several ways: "STEP 1" or "step 1" alone on a line (about a third
    /// of the dump), "STEP 1 - MARINATING THE BEEF" (the title is kept), a bare "2" or "2.", and
    /// a "▢" checkbox glyph pasted from recipe sites. Markers alone are dropped; numbered text
    /// ("1. Prepare the potatoes") is kept as written.
    static func steps(from instructions: String?) -> [String] {
        guard let instructions else { return [] }
        // Splitting at every CR and LF and dropping the empty pieces is unifying `\r\n` and `\r`
        // to `\n` and splitting there; on scalars, because `\r\n` is one `Character`.
        return instructions.unicodeScalars
            .split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r" })
            .compactMap { line in
                let text = withoutStepHeader(line.trimmed(where: \.isSpaceOrTab))
                guard containsLetter(text) else { return nil }
                return text
            }
    }

    /// Whether any `Character` of `text` is a letter. A `Character` is a letter when its first
    /// scalar is alphabetic, so a line that starts with an ASCII letter (nearly every line) is
    /// decided by its first byte, without breaking the whole line into `Character`s.
    static func containsLetter(_ text: String) -> Bool {
        if let first = text.utf8.first, (0x41...0x5A).contains(first) || (0x61...0x7A).contains(first) {
            return true
        }
        return text.contains { $0.isLetter }
    }

    /// "STEP 3 - STIR FRY" → "STIR FRY"; "Step 2:" → ""; other lines unchanged.
    static func withoutStepHeader(_ line: String) -> String {
        // Only four ASCII bytes lower-case to "step", so a line that does not start with them in
        // some case (nearly every line) is returned before it is broken into `Character`s.
        guard line.utf8.count >= 4, zip(line.utf8, "step".utf8).allSatisfy({ $0 | 0x20 == $1 }) else {
            return line
        }
        return withoutStepHeaderByCharacter(line)
    }

    /// The reading by `Character`, for lines that start with "step" in some case: what the
    /// shortcut above must agree with on every line (`InstructionStepTests`).
    static func withoutStepHeaderByCharacter(_ line: String) -> String {
        let scalars = Array(line)
        let keyword = "step"
        guard scalars.count >= keyword.count,
              String(scalars[0..<keyword.count]).lowercased() == keyword else { return line }
        var index = keyword.count
        while index < scalars.count, scalars[index].isWhitespace { index += 1 }
        let digitsStart = index
        while index < scalars.count, ("0"..."9").contains(scalars[index]) { index += 1 }
        guard index > digitsStart else { return line }
        while index < scalars.count, scalars[index].isWhitespace || ":.-)–".contains(scalars[index]) {
            index += 1
        }
        return String(scalars[index...])
    }

    /// `strTags` split on commas: "Soup, Cheesy" and "Halloween," have uneven spaces and
    /// trailing commas; empty parts are dropped and repeats removed, keeping the first.
    static func tags(from text: String?) -> [String] {
        guard let text else { return [] }
        var seen: Set<String> = []
        return text.split(separator: ",")
            .map { $0.unicodeScalars.trimmed(where: \.isWhitespaceOrNewline) }
            .filter { !$0.isEmpty && seen.insert($0).inserted }
    }
}
