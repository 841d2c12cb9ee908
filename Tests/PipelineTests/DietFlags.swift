import Foundation
import Snapshot

/// The diet flags of a snapshot's views against the one vocabulary: the foods whose `is_vegan`
/// or `is_vegetarian` in `v_food_macros`, or whose `is_vegan` in `v_menu_macros`, says other
/// than `v_food_term`. Empty on every source's snapshot.
enum DietFlags {
    static func disagreeing(in snapshot: URL) throws -> [SQLValue] {
        try QueryResult.run("""
            SELECT m.food_id FROM v_food_macros m
            WHERE m.is_vegan != EXISTS (SELECT 1 FROM v_food_term t WHERE t.food_id = m.food_id AND t.term = 'vegan')
               OR m.is_vegetarian != EXISTS (SELECT 1 FROM v_food_term t WHERE t.food_id = m.food_id
                                             AND t.term IN ('vegan', 'vegetarian'))
            UNION
            SELECT food_id FROM v_menu_macros mm
            WHERE mm.is_vegan != EXISTS (SELECT 1 FROM v_food_term t WHERE t.food_id = mm.food_id AND t.term = 'vegan')
            """, on: snapshot).rows.map { $0[0] }
    }

    /// How many foods the views call vegan.
    static func vegan(in snapshot: URL) throws -> Int64 {
        guard case .integer(let count) = try QueryResult.run("SELECT count(*) FROM v_food_macros WHERE is_vegan",
                                                             on: snapshot).rows.first?.first
        else { return -1 }
        return count
    }
}
