import Basics
import Foundation
import Synchronization

/// The estimator a pipeline names (`nutrition_reference`), its reference's foods read when a run
/// first estimates. Reading every food with its nutrients and measures was a third of the start
/// of every command that reads such a pipeline, and a dry run, a partition's own task or a night
/// with nothing to publish estimates nothing.
///
/// What checks the pipeline is read with it: the reference's build (its file, size and
/// modification time, for the pipeline's fingerprint), the ids of its foods, and the matching
/// tables checked against them, so a table naming a food the reference lacks is refused when the
/// pipeline is read, as before. The foods are read later from that same build: a reference built
/// again in between is refused rather than estimated from, since the fingerprint names the other.
public final class DeferredEstimator: Sendable {
    public let referenceName: String
    /// The build the pipeline was read with (`NutritionReference.version`).
    public let referenceVersion: String
    public let tables: MatchingTables
    private let file: URL
    private let made = Mutex<RecipeEstimator?>(nil)

    /// Reads the reference's build and its foods' ids at `file`, and its matching tables (as
    /// `MatchingTables.load` finds them beside `folder`).
    public init(reference name: String, file: URL, tablesBeside folder: URL) throws {
        let (ids, version) = try NutritionReference.foodIDs(name, from: file)
        referenceName = name
        referenceVersion = version
        tables = try MatchingTables.load(for: name, foods: ids, beside: folder)
        self.file = file
    }

    /// The estimator, its reference read on the first call.
    public func estimator() throws -> RecipeEstimator {
        try made.withLock { made in
            if let made { return made }
            let reference = try NutritionReference.load(referenceName, from: file)
            guard reference.version == referenceVersion else {
                throw Failure.fileSystem("the nutrition reference \(referenceName) was built again while this run "
                                         + "used it; run again, which reads the new one", path: file.path)
            }
            let estimator = RecipeEstimator(matcher: IngredientMatcher(reference: reference, tables: tables))
            made = estimator
            return estimator
        }
    }
}
