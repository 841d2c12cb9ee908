/// Everything one run has normalized, ready to be computed on, checked and published.
///
/// Partitions are parsed independently and merged here; merging is where identities pay off:
/// a food seen on ten days is stored once, and a later copy of it replaces an earlier one.
public struct Dataset: Hashable, Sendable, Codable {
    public var serviceDays: [ServiceDay]
    public var foods: [FoodID: Food]
    public var hours: [HoursEntry]
    /// Dining locations as a platform describes them (Bon Appétit's cafés answer, an `hours:`
    /// file's time zones); the pipeline's places file fills or overrides them when written.
    public var places: [Place]
    public var recipes: [RecipeID: Recipe]
    /// Recipes too many to hold, set aside as they were read (a dump): written after `recipes`'
    /// sources are merged, and replaced by a recipe of `recipes` with the same id.
    public var recipeSpools: [RecipeSpool]
    public var categories: [String: Category]
    /// Provenance of every input document that went into this dataset.
    public var documents: [SourceDocument]

    public init(serviceDays: [ServiceDay] = [], foods: [FoodID: Food] = [:], hours: [HoursEntry] = [],
                recipes: [RecipeID: Recipe] = [:], recipeSpools: [RecipeSpool] = [],
                categories: [String: Category] = [:], documents: [SourceDocument] = [], places: [Place] = []) {
        self.serviceDays = serviceDays
        self.foods = foods
        self.hours = hours
        self.places = places
        self.recipes = recipes
        self.recipeSpools = recipeSpools
        self.categories = categories
        self.documents = documents
    }

    /// Adds another partition's content. A service day with the same date as one already here
    /// is another source's menus of that date: its meals join the day's (`ServiceDay.add`), one
    /// meal per name with the restaurants of both, as the snapshot writes them.
    public mutating func merge(_ other: Dataset) {
        for day in other.serviceDays {
            if let index = serviceDays.firstIndex(where: { $0.date == day.date }) {
                serviceDays[index].add(day)
            } else {
                serviceDays.append(day)
            }
        }
        foods.merge(other.foods) { _, newer in newer }
        hours.append(contentsOf: other.hours)
        places.append(contentsOf: other.places)
        recipes.merge(other.recipes) { _, newer in newer }
        recipeSpools.append(contentsOf: other.recipeSpools)
        categories.merge(other.categories) { _, newer in newer }
        documents.append(contentsOf: other.documents)
    }
}

/// Where one input came from: the provenance row behind `_sources`.
public struct SourceDocument: Hashable, Sendable, Codable {
    public var url: String
    public var fetchedAt: String
    public var status: Int
    public var sha256: String
    public var charset: String?
    public var byteCount: Int

    public init(url: String, fetchedAt: String, status: Int, sha256: String, charset: String?,
                byteCount: Int) {
        self.url = url
        self.fetchedAt = fetchedAt
        self.status = status
        self.sha256 = sha256
        self.charset = charset
        self.byteCount = byteCount
    }
}

extension Dataset {
    /// Puts every restaurant of the days, every hours entry and every place on `campus` (a source's
    /// `campus:`), which tells same-named restaurants of two campuses apart.
    public mutating func assign(campus: String) {
        for day in serviceDays.indices {
            for meal in serviceDays[day].meals.indices {
                for restaurant in serviceDays[day].meals[meal].restaurants.indices {
                    serviceDays[day].meals[meal].restaurants[restaurant].campus = campus
                }
            }
        }
        for entry in hours.indices { hours[entry].campus = campus }
        for place in places.indices { places[place].campus = campus }
    }
}
