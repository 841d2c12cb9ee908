import Basics
import FoodModel
import Foundation

/// Turns whatever decoding threw into one `Failure` line that names the document and, when
/// JSONDecoder knows it, the place inside it (`meals[3].strMeal`).
enum DecodingFailure {
    static func inputError(_ error: any Error, location: String) -> Failure {
        guard let decodingError = error as? DecodingError else {
            return Failure.badInput("cannot be read: \(error)", at: location)
        }
        switch decodingError {
        case let .dataCorrupted(context):
            if isNotJSON(context) {
                return Failure.badInput("not valid JSON, so not a TheMealDB response", at: location)
            }
            return Failure.badInput(message(context.debugDescription, context.codingPath), at: location)
        case let .keyNotFound(key, context):
            let what = context.debugDescription.hasPrefix("No value associated")
                ? "missing \"\(key.stringValue)\"" : context.debugDescription
            return Failure.badInput(message(what, context.codingPath), at: location)
        case let .typeMismatch(_, context):
            return Failure.badInput(message(context.debugDescription, context.codingPath), at: location)
        case let .valueNotFound(type, context):
            return Failure.badInput(message("expected \(type), found null", context.codingPath), at: location)
        @unknown default:
            return Failure.badInput("cannot be decoded: \(decodingError)", at: location)
        }
    }

    /// One meal of a dump that did not decode alone, named by its place in the list, counted
    /// from 1 ("meal 12345: strTags: ..."), since a dump has no other name for it.
    static func mealError(_ error: any Error, position: Int, location: String) -> Failure {
        if case let .dataCorrupted(context)? = error as? DecodingError, isNotJSON(context) {
            return Failure.badInput("meal \(position) is not valid JSON", at: location)
        }
        return Failure.badInput("meal \(position): \(inputError(error, location: location).message)", at: location)
    }

    private static func isNotJSON(_ context: DecodingError.Context) -> Bool {
        context.codingPath.isEmpty
            && (context.underlyingError != nil || context.debugDescription.contains("not valid JSON"))
    }

    private static func message(_ text: String, _ path: [any CodingKey]) -> String {
        path.isEmpty ? text : "\(describe(path)): \(text)"
    }

    /// `meals[3].strMeal`: array positions as subscripts, keys as dotted names.
    static func describe(_ path: [any CodingKey]) -> String {
        var result = ""
        for key in path {
            if let index = key.intValue {
                result += "[\(index)]"
            } else {
                result += result.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return result
    }
}
