extension SnapshotSchema {
    /// Migration 23: what a code says of its allergen terms, contains or may contain
    /// (`TermPresence`), so that Bon Appétit's "may contain milk" icon is not read as a label's
    /// "contains milk"; both views of the codes' meanings say it.
    static let v23AllergenPresence = """
        ALTER TABLE code_term ADD COLUMN presence TEXT NOT NULL DEFAULT 'contains'
            CHECK (presence IN ('contains', 'may_contain'));
        DROP VIEW v_food_term;
        \(SnapshotView.foodTerm(presence: true).sqlite);
        DROP VIEW v_menu_code;
        \(SnapshotView.menuCode(presence: true).sqlite);
        """
}
