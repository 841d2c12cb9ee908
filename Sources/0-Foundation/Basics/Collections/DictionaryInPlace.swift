extension Dictionary {
    /// Changes every value where it lies, in no particular order.
    ///
    /// A loop over `values.indices` looks the same and is not: the indices hold the dictionary
    /// they walk, so the first change copies its storage, and each value then copies whatever
    /// storage of its own the change touches (an array of nutrients, for a food), every value of
    /// the table on every call. Walking the indices one by one holds nothing.
    public mutating func updateEachValue(_ change: (inout Value) throws -> Void) rethrows {
        var index = values.startIndex
        while index != values.endIndex {
            try change(&values[index])
            values.formIndex(after: &index)
        }
    }
}
