import Fetching
import FoodModel
import Foundation

/// What a harvester asks of the run for its documents: the adapters' whole contract with
/// fetching. Where a document comes from (the server, the raw store, a replay), whether a stored
/// copy is still fresh, when a missing one is asked again and which food documents were parsed
/// before is decided behind it, by the run's fetch stage (`DocumentLog` in Pipeline).
public protocol DocumentReader: Sendable {
    /// A document whose content may change between runs (a day's menu), asked for each run.
    func fetch(_ url: String) async throws -> FetchedDocument
    /// A document several partitions of the run read (a week of menus for each of its days):
    /// requested once; `readers` is how many partitions of this run will ask for it.
    func fetchShared(_ url: String, readers: Int, run: RunContext) async throws -> FetchedDocument
    /// A document too large to hold, handed to `consume` in pieces as it is read.
    func stream(_ url: String, into consume: (Data) throws -> Void) async throws -> SourceDocument
    /// A page that is its food (a recipe or label page): a fresh stored copy when there is one.
    func fetchUnlessKnown(_ url: String) async throws -> FetchedDocument
    /// Says which food documents are about to be read, so that they are looked up together.
    func recall(_ urls: [String]) async
    /// A food's document read by `parse`, unless an earlier run parsed the same bytes with the
    /// same code and `parser`.
    func food(_ url: String, parser: String,
              parse: @Sendable (FetchedDocument) throws -> FoodReading) async throws -> FoodReading
}
