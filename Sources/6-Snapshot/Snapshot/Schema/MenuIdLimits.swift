/// How many meals a day and items a meal the snapshot's ids can number: a meal's id is its day's
/// times 100 plus its place, an item's its meal's times 100,000 plus its place. A source's day
/// past either is refused before it is written, as a degraded day (`PartitionJudge`), so that
/// the writer's own refusal is never a night's end.
public enum MenuIdLimits {
    public static let mealsPerDay = 99
    public static let itemsPerMeal = 99_999
}
