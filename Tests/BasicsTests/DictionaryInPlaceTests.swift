import Basics
import Testing

/// `updateEachValue` changes each value where it lies: a value's own storage (here an array) is
/// the one it had, not a copy, and every value is changed once.
@Suite struct DictionaryInPlaceTests {
    private struct Label {
        var name: String
        var amounts: [Double]
    }

    private static func labels() -> [String: Label] {
        var labels: [String: Label] = [:]
        for number in 0..<200 {
            // Made at run time: an array literal of constants can be a static object that any
            // first change copies.
            labels["food \(number)"] = Label(name: "food \(number)", amounts: (0..<(3 + number % 4)).map(Double.init))
        }
        return labels
    }

    private static func storage(of labels: [String: Label]) -> [String: UnsafePointer<Double>?] {
        labels.mapValues { label in label.amounts.withUnsafeBufferPointer(\.baseAddress) }
    }

    @Test func everyValueIsChangedOnce() {
        var labels = Self.labels()
        labels.updateEachValue { label in
            for index in label.amounts.indices { label.amounts[index] += 10 }
        }
        #expect(labels.count == 200)
        // "food 5": 3 + 5 % 4 = 4 amounts, 0 to 3, each raised by 10 once.
        #expect(labels["food 5"]?.amounts == [10, 11, 12, 13])
        #expect(labels["food 8"]?.amounts == [10, 11, 12])
        #expect(labels.values.allSatisfy { $0.amounts.first == 10 })
    }

    @Test func aValuesStorageIsChangedWhereItLies() {
        var labels = Self.labels()
        let before = Self.storage(of: labels)
        labels.updateEachValue { label in label.amounts[0] = -1 }
        // A loop over `values.indices` gives each value a new array here (the indices hold
        // the table, so the first change copies it and the arrays are then shared): tried.
        let after = Self.storage(of: labels)
        #expect(before.filter { after[$0.key] != $0.value }.map(\.key).sorted() == [])
        #expect(labels.values.allSatisfy { $0.amounts[0] == -1 })
    }
}
