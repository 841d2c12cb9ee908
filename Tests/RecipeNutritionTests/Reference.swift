import RecipeNutrition
import TestSupport

/// The reference as `scripts/nutrition-reference` builds it (`scripts/test` builds it before the
/// tests), with the project's synonyms and overrides: loaded once for every test.
enum Reference {
    static let estimator: Result<RecipeEstimator, any Error> = Result {
        let reference = try NutritionReference.load("usda-sr24")
        let tables = try MatchingTables.load(for: reference, beside: Paths.pipelines)
        return RecipeEstimator(matcher: IngredientMatcher(reference: reference, tables: tables))
    }

    static func loaded() throws -> RecipeEstimator { try estimator.get() }
}
