import FoodModel

/// Ingredient names as recipes write them ("Chicken Breast", "POTATO BLANCHED DICED 3/4\"") to
/// foods of a nutrition reference. In order: an override for the exact name, a curated synonym
/// for its words, a reference food that names every word (scored, accepted above a threshold),
/// and a synonym for its last words (the head of an English noun phrase: "Tuscan Kale" is kale),
/// accepted when it keeps at least half the words. Anything else stays unknown, with the reason.
public struct IngredientMatcher: Sendable {
    public struct Match: Sendable, Hashable {
        public let food: NutritionReference.Food
        public let score: Double
        public let rule: String
    }

    /// The lowest word score accepted: the head word in the food's first two segments and the
    /// food's name at most four times as long as the ingredient's, or a raw food nearly so.
    public static let threshold = 0.55

    /// The rule of a match the override file made.
    public static let overrideRule = "override"

    public let reference: NutritionReference
    public let tables: MatchingTables

    /// A food a word match may choose, with its words.
    struct Candidate: Sendable {
        let food: NutritionReference.Food
        let words: Set<String>
        let leadingWords: Set<String>
    }

    /// SR food groups never matched by words: baby foods (03), fast foods (21), meals and entrées
    /// (22), branded bars (25), American Indian foods (35), restaurant foods (36), baby foods (42).
    static let excludedGroups: Set<Substring> = ["03", "21", "22", "25", "35", "36", "42"]

    public init(reference: NutritionReference, tables: MatchingTables) {
        self.reference = reference
        self.tables = tables
    }

    /// The foods a word match may choose: branded foods, fast food, baby food, meals and
    /// restaurant dishes are left out (a recipe's "Chicken Thigh" is not a frozen meal that
    /// contains one); synonyms and overrides may still name them.
    static func candidates(among foods: [NutritionReference.Food]) -> [Candidate] {
        foods.sorted { $0.id < $1.id }.compactMap { food in
            guard !excludedGroups.contains(food.id.prefix(2)), !isBranded(food.name) else { return nil }
            let segments = food.name.split(separator: ",").prefix(2).joined(separator: " ")
            return Candidate(food: food, words: Set(IngredientWords.of(food.name, keepDescriptors: true)),
                             leadingWords: Set(IngredientWords.of(segments, keepDescriptors: true)))
        }
    }

    /// A brand in capitals ("BANQUET", "CAMPBELL'S") marks a branded food: a word of three
    /// letters or more, all capitals. An ASCII name is read as bytes, since the standard
    /// library's letter and case properties cost more than the rest of a reference's words.
    static func isBranded(_ name: String) -> Bool {
        guard name.utf8.allSatisfy({ $0 < 0x80 }) else {
            return name.split { !$0.isLetter }.contains { $0.count >= 3 && $0.allSatisfy(\.isUppercase) }
        }
        var capitals = 0
        var allCapitals = true
        for byte in name.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): capitals += 1
            case UInt8(ascii: "a")...UInt8(ascii: "z"): allCapitals = false
            default:
                if allCapitals && capitals >= 3 { return true }
                capitals = 0
                allCapitals = true
            }
        }
        return allCapitals && capitals >= 3
    }

    /// The match of `name`, or the reason there is none.
    public func match(_ name: String) -> Result<Match, Unmatched> {
        switch tables.overrides[MatchingTables.overrideKey(name)] {
        case .food(let id)?:
            guard let food = reference.foods[id] else {
                return .failure(Unmatched(.unmatchedName, "the override names \(id), which is not a food of \(reference.name)"))
            }
            return .success(Match(food: food, score: 1, rule: Self.overrideRule))
        case .unknown(let reason)?: return .failure(Unmatched(.unknownByOverride, "unknown by override: \(reason)"))
        case nil: break
        }
        let words = IngredientWords.of(name)
        guard !words.isEmpty else { return .failure(Unmatched(.unmatchedName, "no word to match")) }
        if let id = tables.synonyms[words.joined(separator: " ")], let food = reference.foods[id] {
            return .success(Match(food: food, score: 1, rule: "synonym"))
        }
        let best = bestByWords(words)
        if let best, best.score >= Self.threshold { return .success(best) }
        for start in 1..<words.count where Double(words.count - start) / Double(words.count) >= 0.5 {
            if let id = tables.synonyms[words[start...].joined(separator: " ")], let food = reference.foods[id] {
                return .success(Match(food: food, score: Double(words.count - start) / Double(words.count),
                                      rule: "head words"))
            }
        }
        if let best {
            return .failure(Unmatched(.unmatchedName, "the closest food, \(best.food.name) (\(best.food.id)), scored "
                                      + "\(Self.rounded(best.score)), below \(Self.threshold)"))
        }
        return .failure(Unmatched(.unmatchedName, "no food of \(reference.name) names every word (\(words.joined(separator: " ")))"))
    }

    /// The food naming every word with the best score: half the share of its words the
    /// ingredient names, 0.3 when the ingredient's last word is in its first two segments, 0.2
    /// when it is raw; ties go to the shorter name, then the lower id.
    private func bestByWords(_ words: [String]) -> Match? {
        let wanted = Set(words)
        let head = words[words.count - 1]
        let index = reference.wordCandidates.index
        // Every candidate naming every word names the rarest one: only those are looked at, in
        // the candidates' order. A word no candidate has leaves none.
        var rarest: [Int] = []
        for word in wanted {
            guard let positions = index.positions[word] else { return nil }
            if rarest.isEmpty || positions.count < rarest.count { rarest = positions }
        }
        var best: (score: Double, candidate: Candidate)?
        for position in rarest where wanted.isSubset(of: index.all[position].words) {
            let candidate = index.all[position]
            let score = 0.5 * Double(wanted.count) / Double(candidate.words.count)
                + (candidate.leadingWords.contains(head) ? 0.3 : 0) + (candidate.words.contains("raw") ? 0.2 : 0)
            if let current = best {
                let shorter = (candidate.food.name.count, candidate.food.id) < (current.candidate.food.name.count,
                                                                                 current.candidate.food.id)
                guard score > current.score + 1e-9 || (abs(score - current.score) <= 1e-9 && shorter) else { continue }
            }
            best = (score, candidate)
        }
        return best.map { Match(food: $0.candidate.food, score: $0.score, rule: "words") }
    }

    static func rounded(_ value: Double) -> String {
        String(Double((value * 100).rounded()) / 100)
    }
}

/// Why an ingredient has no reference food.
public struct Unmatched: Error, Sendable, Hashable {
    /// `unmatched_name` or `unknown_by_override`.
    public let code: EstimateLine.Code
    public let reason: String

    init(_ code: EstimateLine.Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }
}
