import Foundation

/// The name of the one key under which a response carries its list.
protocol EnvelopeField {
    static var name: String { get }
}

enum MealsField: EnvelopeField {
    static let name = "meals"
}

enum CategoriesField: EnvelopeField {
    static let name = "categories"
}

/// A response body: `{"meals": [...]}`, or `{"meals": null}` when nothing matched, or (for
/// dumps saved by others) a bare array of the same objects.
struct Envelope<Field: EnvelopeField, Element: Decodable>: Decodable {
    var items: [Element]

    init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: WireKey.self) {
            let key = WireKey(Field.name)
            guard object.contains(key) else {
                throw DecodingError.keyNotFound(key, DecodingError.Context(
                    codingPath: [], debugDescription: "no \"\(Field.name)\" key"))
            }
            items = try object.decodeNil(forKey: key) ? [] : object.decode([Element].self, forKey: key)
        } else if (try? decoder.unkeyedContainer()) != nil {
            items = try decoder.singleValueContainer().decode([Element].self)
        } else {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: [],
                debugDescription: "expected an object with a \"\(Field.name)\" key or an array"))
        }
    }
}
