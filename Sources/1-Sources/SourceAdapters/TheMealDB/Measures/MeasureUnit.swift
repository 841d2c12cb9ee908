/// A unit a measure can be written in, with what kind of thing it measures.
///
/// The dimension decides the measure's kind: a number with a mass, volume, length or kitchen
/// unit is a `quantity` ("200g", "1 pinch"); a number of discrete items is a `count`
/// ("3 cloves", "1 can"), because a clove or a can says how many, not how much.
struct MeasureUnit: Hashable, Sendable {
    enum Dimension: Hashable, Sendable {
        case mass, volume, length
        /// Informal kitchen measures (pinch, dash, handful): an amount, but with no exact size.
        case kitchen
        /// Discrete items (clove, slice, can, sprig).
        case item
    }

    let name: String
    let dimension: Dimension
    /// `metric`, `us`, or nil for units that belong to no system (pinch, clove).
    let system: String?

    /// Whether this unit is a weight or volume that a dual or parenthesised equivalent may stand for.
    var isMassOrVolume: Bool { dimension == .mass || dimension == .volume }
    var isMetricMassOrVolume: Bool { isMassOrVolume && system == MeasureUnit.metric }

    static let metric = "metric"
    static let us = "us"

    /// Names for "the juice/zest of N": TheMealDB writes "Juice of 1/2" for half a lemon's juice,
    /// and the count of fruit is the only amount given.
    static let juice = MeasureUnit(name: "juice", dimension: .item, system: nil)
    static let zest = MeasureUnit(name: "zest", dimension: .item, system: nil)
    static let juiceAndZest = MeasureUnit(name: "juice and zest", dimension: .item, system: nil)
}

/// The spellings TheMealDB uses for each unit, canonicalised.
///
/// Spoons and cups are marked `us`: the dump is UK-heavy, but a metric tablespoon (15 ml)
/// differs from a US one (14.787 ml) by under 2%, and a converter needs one system to start from.
enum MeasureUnits {
    private static let table: [(MeasureUnit, [String])] = [
        (unit("g", .mass, MeasureUnit.metric), ["g", "gr", "grs", "gram", "grams", "gramme", "grammes"]),
        (unit("kg", .mass, MeasureUnit.metric), ["kg", "kgs", "kilo", "kilos", "kilogram", "kilograms"]),
        (unit("mg", .mass, MeasureUnit.metric), ["mg", "milligram", "milligrams"]),
        (unit("ml", .volume, MeasureUnit.metric),
         ["ml", "mls", "millilitre", "millilitres", "milliliter", "milliliters"]),
        (unit("cl", .volume, MeasureUnit.metric), ["cl", "centilitre", "centilitres"]),
        (unit("dl", .volume, MeasureUnit.metric), ["dl", "decilitre", "decilitres"]),
        (unit("l", .volume, MeasureUnit.metric), ["l", "ltr", "litre", "litres", "liter", "liters"]),
        (unit("oz", .mass, MeasureUnit.us), ["oz", "ozs", "ounce", "ounces"]),
        (unit("lb", .mass, MeasureUnit.us), ["lb", "lbs", "pound", "pounds"]),
        (unit("fl oz", .volume, MeasureUnit.us), ["fl", "floz"]),
        (unit("cup", .volume, MeasureUnit.us), ["cup", "cups"]),
        (unit("pint", .volume, MeasureUnit.us), ["pint", "pints", "pt"]),
        (unit("quart", .volume, MeasureUnit.us), ["quart", "quarts", "qt", "qts"]),
        (unit("gallon", .volume, MeasureUnit.us), ["gallon", "gallons", "gal"]),
        (unit("tsp", .volume, MeasureUnit.us), ["tsp", "tsps", "teaspoon", "teaspoons", "tspn"]),
        (unit("tbsp", .volume, MeasureUnit.us),
         ["tbsp", "tbsps", "tbs", "tbls", "tblsp", "tblspn", "tbl", "tablespoon", "tablespoons"]),
        (unit("cm", .length, MeasureUnit.metric),
         ["cm", "cms", "centimetre", "centimetres", "centimeter", "centimeters"]),
        (unit("mm", .length, MeasureUnit.metric), ["mm"]),
        (unit("inch", .length, MeasureUnit.us), ["inch", "inches"]),
        (unit("pinch", .kitchen, nil), ["pinch", "pinches"]),
        (unit("dash", .kitchen, nil), ["dash", "dashes"]),
        (unit("splash", .kitchen, nil), ["splash", "splashes"]),
        (unit("handful", .kitchen, nil), ["handful", "handfuls"]),
        (unit("knob", .kitchen, nil), ["knob", "knobs"]),
        (unit("drizzle", .kitchen, nil), ["drizzle", "drizzles"]),
        (unit("sprinkling", .kitchen, nil), ["sprinkling", "sprinkle", "sprinkles"]),
        (unit("dusting", .kitchen, nil), ["dusting"]),
        (unit("grating", .kitchen, nil), ["grating"]),
        (unit("drop", .kitchen, nil), ["drop", "drops"]),
        (unit("shot", .kitchen, nil), ["shot", "shots"]),
        (unit("glug", .kitchen, nil), ["glug", "glugs"]),
        (unit("thumb", .kitchen, nil), ["thumb", "thumbs"]),
        (unit("clove", .item, nil), ["clove", "cloves"]),
        (unit("slice", .item, nil), ["slice", "slices"]),
        (unit("piece", .item, nil), ["piece", "pieces", "pcs"]),
        (unit("can", .item, nil), ["can", "cans", "tin", "tins"]),
        (unit("jar", .item, nil), ["jar", "jars"]),
        (unit("pack", .item, nil), ["pack", "packs", "packet", "packets", "package", "packages", "pkg"]),
        (unit("bag", .item, nil), ["bag", "bags"]),
        (unit("bottle", .item, nil), ["bottle", "bottles"]),
        (unit("tub", .item, nil), ["tub", "tubs"]),
        (unit("pot", .item, nil), ["pot", "pots"]),
        (unit("sprig", .item, nil), ["sprig", "sprigs"]),
        (unit("bunch", .item, nil), ["bunch", "bunches"]),
        (unit("head", .item, nil), ["head", "heads"]),
        (unit("stick", .item, nil), ["stick", "sticks"]),
        (unit("leaf", .item, nil), ["leaf", "leaves"]),
        (unit("strip", .item, nil), ["strip", "strips"]),
        (unit("stalk", .item, nil), ["stalk", "stalks"]),
        (unit("rasher", .item, nil), ["rasher", "rashers"]),
        (unit("bulb", .item, nil), ["bulb", "bulbs"]),
        (unit("pod", .item, nil), ["pod", "pods"]),
        (unit("fillet", .item, nil), ["fillet", "fillets"]),
        (unit("sheet", .item, nil), ["sheet", "sheets"]),
        (unit("cube", .item, nil), ["cube", "cubes"]),
        (unit("scoop", .item, nil), ["scoop", "scoops"]),
        (MeasureUnit.juice, ["juice"]),
        (MeasureUnit.zest, ["zest"]),
    ]

    /// Misspellings seen in the dump ("handfull", "Sprinking"): read as the unit they mean, with
    /// lower confidence, since the reading is a guess at what the author meant.
    private static let misspellings: [String: String] = [
        "handfull": "handful", "handfulls": "handful",
        "sprinking": "sprinkling", "spinkling": "sprinkling", "sprinkeling": "sprinkling",
        "tablspoon": "tablespoon", "tablespon": "tablespoon", "teaspon": "teaspoon",
    ]

    private static let bySpelling: [String: MeasureUnit] = {
        var result: [String: MeasureUnit] = [:]
        for (unit, spellings) in table {
            for spelling in spellings { result[spelling] = unit }
        }
        return result
    }()

    private static func unit(_ name: String, _ dimension: MeasureUnit.Dimension,
                             _ system: String?) -> MeasureUnit {
        MeasureUnit(name: name, dimension: dimension, system: system)
    }

    /// The unit a lowercased word names, and whether it was a known misspelling.
    static func unit(named word: String) -> (unit: MeasureUnit, misspelt: Bool)? {
        if let unit = bySpelling[word] { return (unit, false) }
        if let corrected = misspellings[word], let unit = bySpelling[corrected] { return (unit, true) }
        return nil
    }

    /// Two-word units: "fl oz", "fluid ounces".
    static func unit(named first: String, _ second: String) -> MeasureUnit? {
        guard ["fl", "fluid"].contains(first), ["oz", "ounce", "ounces"].contains(second) else { return nil }
        return bySpelling["fl"]
    }
}
