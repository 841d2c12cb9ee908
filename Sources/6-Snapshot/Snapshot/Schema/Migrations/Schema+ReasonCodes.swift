extension SnapshotSchema {
    /// Migration 20: what became of an estimate and of each of its lines as a stable code, beside
    /// the wording a person reads, so that a report or a query counts by the code rather than by
    /// the sentence (`reason_code`); and which rows of a recipe's composition are sub-recipes,
    /// which an estimate that matches one by its name says. Rows written before are given the
    /// code their wording says.
    static let v20ReasonCodes = """
        ALTER TABLE food_estimate ADD COLUMN reason_code TEXT
            CHECK (reason_code IN ('no_lines', 'nothing_counted'));
        UPDATE food_estimate SET reason_code = CASE
            WHEN reason IS NULL THEN NULL
            WHEN lines = 0 THEN 'no_lines'
            ELSE 'nothing_counted' END;
        ALTER TABLE food_estimate_line ADD COLUMN reason_code TEXT NOT NULL DEFAULT 'unmatched_name'
            CHECK (reason_code IN ('matched', 'override', 'subrecipe_document', 'subrecipe_by_name', 'unmatched_name',
                                   'unknown_by_override', 'subrecipe_unmatched', 'unconvertible_unit', 'no_amount'));
        UPDATE food_estimate_line SET reason_code = CASE
            WHEN reason IS NULL AND matched_by = 'override' THEN 'override'
            WHEN reason IS NULL AND matched_by IN ('sub-recipe label', 'sub-recipe estimate') THEN 'subrecipe_document'
            WHEN reason IS NULL AND matched_by LIKE 'sub-recipe matched by name%' THEN 'subrecipe_by_name'
            WHEN reason IS NULL THEN 'matched'
            WHEN reason LIKE 'unknown by override%' THEN 'unknown_by_override'
            WHEN reason LIKE 'a sub-recipe with no document%' THEN 'subrecipe_unmatched'
            WHEN reason LIKE 'no amount%' OR reason LIKE 'no weight%' THEN 'no_amount'
            WHEN matched_by IS NULL THEN 'unmatched_name'
            ELSE 'unconvertible_unit' END;
        CREATE INDEX food_estimate_line_by_code ON food_estimate_line(reason_code);
        ALTER TABLE food_component ADD COLUMN is_subrecipe INTEGER NOT NULL DEFAULT 0;
        """
}
