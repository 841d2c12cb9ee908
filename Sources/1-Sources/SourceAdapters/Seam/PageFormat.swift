import Basics
import FoodModel
import Fetching
import Foundation

/// One page or response format an adapter reads, as `commissary parse` shows it: the same
/// parser a run uses, on one document.
public struct PageFormat: Sendable {
    /// The format's name under its adapter (`--page`): `overview`, `recipe`, `label`.
    public var name: String
    /// The names `parse --adapter` took before adapters and pipelines shared theirs
    /// (`ucla-menu` for the menu site's overview), still accepted.
    public var aliases: [String]
    /// Whether the format carries Nutrition Facts labels, so `--dv-standard` applies.
    public var hasLabels: Bool
    public var read: @Sendable (FetchedDocument, PageHints) throws -> PageReading

    public init(name: String, aliases: [String] = [], hasLabels: Bool = false,
                read: @escaping @Sendable (FetchedDocument, PageHints) throws -> PageReading) {
        self.name = name
        self.aliases = aliases
        self.hasLabels = hasLabels
        self.read = read
    }
}

/// What the command line adds to a document that the document alone may not say.
public struct PageHints: Sendable {
    /// `--recipe-id`: the id of a recipe or label page.
    public var recipeId: String?
    /// `--date`, else a `YYYY-MM-DD` in the file name: a dataset file's day, the day an hours
    /// page's dates without a year are anchored to.
    public var date: ServiceDate?
    /// Today, for pages that need a date and were given none.
    public var today: ServiceDate

    public init(recipeId: String?, date: ServiceDate?, today: ServiceDate) {
        self.recipeId = recipeId
        self.date = date
        self.today = today
    }

    /// `--recipe-id`, else what `find` reads from the URL or file name.
    public func recipeId(of url: String, find: (String) -> String?) throws -> String {
        guard let id = recipeId ?? find(url) else {
            throw Failure.badInput("cannot tell the recipe id from the address; give --recipe-id", at: url)
        }
        return id
    }
}

/// One document read: what it normalizes to, and what a run reading it would warn about.
public struct PageReading: Sendable {
    public var page: ParsedPage
    /// Values left out, units read otherwise than printed, rows that could not be placed: one
    /// line each, as the run's `partition_warning`s say them.
    public var problems: [String]

    public init(_ page: ParsedPage, problems: [String] = []) {
        self.page = page
        self.problems = problems
    }
}

/// What one document normalizes to; encoded as the value itself.
public enum ParsedPage: Encodable, Sendable {
    case day(ServiceDay)
    /// A page of one restaurant's sections (the menu site's detailed menu).
    case sections([Section])
    case food(Food)
    case hours([HoursEntry])
    /// A dataset day: its menu and the foods (with labels) it names.
    case dayWithFoods(ServiceDay, [Food])
    case recipes([Recipe])

    /// The same page with every food's nutrients passed through `annotate` (computed %DV).
    public func mapFoods(_ annotate: (Food) -> Food) -> ParsedPage {
        switch self {
        case .food(let food): .food(annotate(food))
        case .dayWithFoods(let day, let foods): .dayWithFoods(day, foods.map(annotate))
        case .day, .sections, .hours, .recipes: self
        }
    }

    private enum DayWithFoodsKeys: String, CodingKey { case day, foods }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .day(let day): try day.encode(to: encoder)
        case .sections(let sections): try sections.encode(to: encoder)
        case .food(let food): try food.encode(to: encoder)
        case .hours(let hours): try hours.encode(to: encoder)
        case .recipes(let recipes): try recipes.encode(to: encoder)
        case .dayWithFoods(let day, let foods):
            var container = encoder.container(keyedBy: DayWithFoodsKeys.self)
            try container.encode(day, forKey: .day)
            try container.encode(foods, forKey: .foods)
        }
    }
}
