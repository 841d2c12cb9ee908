extension SchemaDescription {
    private typealias C = Column

    /// The nutrition estimates (migration 19) and their view.
    static let estimates: [Table] = [
        Table("food_estimate", .data, "A nutrition estimate of one dish from what its recipe lists, never printed by its source: each ingredient matched to a food of a nutrition reference (USDA SR24) and weighed (docs/nutrition-estimates.md). One row per TheMealDB recipe and per UCLA recipe document with weighed rows, when the pipeline names `nutrition_reference`.", columns: [
            C("subject_id", "The dish: → `recipe.id` (`kind` `recipe`) or → `food.id` (`food`)."),
            C("subject_kind", "`recipe` (a catalogue recipe) or `food` (a kitchen's recipe document)."),
            C("reference", "The nutrition reference the ingredients were matched in (`usda-sr24`)."),
            C("lines", "The recipe's lines (headings left out)."),
            C("lines_counted", "The lines both matched and weighed: the ones the estimate sums."),
            C("converted_grams", "Grams of every line that could be weighed, matched or not."),
            C("matched_grams", "Grams of the lines counted."),
            C("matched_share", "`matched_grams` / `converted_grams`: how much of the weighed recipe the estimate stands on (0 without any weighed line). Lines that could not be weighed are not in it; `food_estimate_line.reason` says which."),
            C("cooking_loss_percent", "How much lighter the cooked dish is than its ingredients, as the source states it (UCLA's `cookingLossPercentage`); 0 when not stated."),
            C("serving_grams", "The serving's weight where the source gives a serving that is a weight (UCLA's portions); NULL otherwise, and then no amount per serving."),
            C("reason", "Why there is no estimate (no line both matched and weighed); NULL when there is one."),
            C("reason_code", "`reason` as a stable code: `no_lines` (the recipe lists no ingredient) or `nothing_counted` (no line both matched and weighed); NULL when there is an estimate."),
        ]),
        Table("food_estimate_nutrient", .data, "One estimated nutrient of a dish, per 100 g of its matched ingredients after the cooking loss.", columns: [
            C("subject_id", "→ `food_estimate.subject_id`."),
            C("nutrient_key", "The nutrient, under the keys of `nutrient.key` (`calories`, `protein`, `total_fat`, `total_carbohydrate`, `sodium`, ...)."),
            C("amount_per_100g", "The estimated amount per 100 g."),
            C("unit", "Unit of `amount_per_100g` (`kcal`, `g`, `mg`)."),
        ]),
        Table("food_estimate_line", .data, "One line of an estimated recipe, as the estimate read it: its grams and how they were found, its match in the reference with the score and the rule, or why it counts for nothing. What a person reviews, and corrects in the overrides file.", columns: [
            C("subject_id", "→ `food_estimate.subject_id`."),
            C("position", "The line's place in the recipe, from 1."),
            C("name", "The ingredient or sub-recipe as the recipe names it."),
            C("measure", "The measure as written (`2 tbsp`, `1.5 lb`); NULL when none."),
            C("grams", "The line's weight in grams; NULL when it could not be weighed."),
            C("grams_from", "How: `weight`, or the reference's household measure used (`1 tbsp = 13.5 g`)."),
            C("reference_id", "The reference food matched (SR24's NDB number), or the sub-recipe's `food.id`; NULL when unmatched."),
            C("reference_name", "The matched food's name in the reference, or the sub-recipe's name."),
            C("match_score", "1 for an override, a synonym or a sub-recipe's label; the word score (0.55 and above) or the share of words kept for a match by words; for a sub-recipe's own estimate, its matched share."),
            C("matched_by", "`override`, `synonym`, `words`, `head words`, `sub-recipe label` or `sub-recipe estimate`; a sub-recipe whose document gives neither, matched by its name, has `sub-recipe matched by name, ` before the rule (`sub-recipe matched by name, synonym`)."),
            C("reason", "Why the line counts for nothing: unmatched (with the closest food and its score), or not weighed (no amount, no household measure); NULL when it counts."),
            C("reason_code", "What became of the line, as a stable code beside the wording of `matched_by` and `reason`. Counted: `matched` (a synonym or its words), `override`, `subrecipe_document` (the sub-recipe's own label or estimate), `subrecipe_by_name` (a sub-recipe whose document gives neither, matched by its name). Not counted: `unmatched_name`, `unknown_by_override`, `subrecipe_unmatched` (such a sub-recipe whose name matched nothing either), `unconvertible_unit` (no grams from its measure), `no_amount`."),
        ]),
        Table("v_food_estimate", .view, "The estimated nutrients of every estimated dish, one row per dish and nutrient: an estimate, never a printed label (those are `v_food_nutrition`).", columns: [
            C("food_id", "The dish: → `recipe.id` or → `food.id`."),
            C("kind", "`recipe` or `food`."),
            C("name", "The dish's name."),
            C("nutrient_key", "The nutrient."),
            C("amount_per_100g", "The estimated amount per 100 g."),
            C("unit", "Unit of the amounts."),
            C("amount_per_serving", "`amount_per_100g` × `serving_grams` / 100; NULL when the source gives no serving weight (TheMealDB)."),
            C("serving_grams", "The serving's weight, where given."),
            C("matched_share", "How much of the weighed recipe the estimate stands on (`food_estimate.matched_share`)."),
            C("reference", "The nutrition reference (`usda-sr24`)."),
        ]),
    ]
}
