import FoodModel

/// Text holding U+FFFD, the character a decoder puts where bytes were not in the encoding the
/// document declared: the published name is then not what the source printed, and nothing in
/// the values says so. Found here, it is reported with the partition and the document.
enum ReplacementCharacters {
    /// The first text of the partition's days and foods that holds U+FFFD, if any.
    static func firstText(in dataset: Dataset) -> String? {
        var found: String?
        for day in dataset.serviceDays where found == nil {
            day.forEachMenuItem { item in
                if found == nil, holds(item.name) || holds(item.description) { found = item.name }
            }
        }
        if let found { return found }
        return dataset.foods.values.first { holds($0.name) || holds($0.description) || holds($0.ingredients) }?.name
    }

    /// U+FFFD is EF BF BD in UTF-8; scanning the bytes is cheaper than comparing characters.
    private static func holds(_ text: String?) -> Bool {
        guard let text else { return false }
        var utf8 = text.utf8.makeIterator()
        var state = 0
        while let byte = utf8.next() {
            switch (state, byte) {
            case (_, 0xEF): state = 1
            case (1, 0xBF): state = 2
            case (2, 0xBD): return true
            default: state = 0
            }
        }
        return false
    }
}
