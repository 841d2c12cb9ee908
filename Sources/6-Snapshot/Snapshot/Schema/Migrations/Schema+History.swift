extension SnapshotSchema {
    /// Migration 22 (after 21, Bon Appétit's places and hours, made on another branch): each
    /// food's history and when it comes back (`v_food_history`), measured from the snapshot's own
    /// day, which `_meta.as_of` now records.
    static let v22FoodHistory = """
        \(SnapshotView.foodHistory.sqlite);
        """
}

extension SnapshotSchema {
    /// Migration 27: `v_food_history`'s PostgreSQL form lists each food's restaurants, meals and
    /// weekdays in one grouped pass (`SnapshotView.foodHistory`); SQLite's is made again as it
    /// was. The new version is what makes a PostgreSQL target build its next night whole, views
    /// included, rather than apply its rows to the served schema's old view.
    static let v27FoodHistoryInOnePass = """
        DROP VIEW v_food_history;
        \(SnapshotView.foodHistory.sqlite);
        """
}
