extension SnapshotSchema {
    /// Migration 22 (after 21, Bon Appétit's places and hours, made on another branch): each
    /// food's history and when it comes back (`v_food_history`), measured from the snapshot's own
    /// day, which `_meta.as_of` now records.
    static let v22FoodHistory = """
        \(SnapshotView.foodHistory.sqlite);
        """
}
