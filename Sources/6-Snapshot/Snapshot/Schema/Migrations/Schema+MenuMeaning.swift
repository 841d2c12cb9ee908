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

    /// Migration 24: "per serving" is the serving the label's amounts are for, which is not
    /// always the portion a menu serves (a 4 oz recipe served at 16 oz): the menu views say the
    /// portion served and whether it is that far from the serving, and `v_menu_nutrition` how
    /// many flags the food has, so that a "highest sugar" list can leave such figures out.
    static let v24PortionServed = """
        DROP VIEW v_menu_nutrition;
        \(SnapshotView.menuNutrition(portion: true).sqlite);
        DROP VIEW v_menu_macros;
        \(SnapshotView.menuMacros(campus: true, portion: true).sqlite);
        """
}
