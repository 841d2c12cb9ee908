import ArgumentParser
import Basics
import Foundation
import Snapshot

struct QueryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Run read-only SQL on a snapshot.",
        discussion: "SNAPSHOT is a file, `latest` (when one pipeline has published), or `latest-<pipeline>`.")

    @Argument(help: "A snapshot file, latest, or latest-<pipeline>.")
    var snapshot: String

    @Argument(help: "The SQL to run (read-only).")
    var sql: String

    @Option(help: "table, csv, json (one array, an object a line) or jsonl (one object a line, JSON Lines).")
    var format: QueryResult.Format = .table

    @Option(help: "The workspace whose snapshots/ folder `latest` refers to.")
    var workspace = "."

    @Option(help: ArgumentHelp("Stop the query after this many seconds (at most a day).", valueName: "seconds"))
    var timeout: Double = QueryLimits.defaultSeconds

    func validate() throws {
        guard timeout > 0, timeout <= QueryLimits.maxSeconds else {
            throw ValidationError("--timeout expects seconds above 0 and at most \(Int(QueryLimits.maxSeconds)) (a day), "
                                  + "found \(timeout)")
        }
    }

    func run() throws {
        let url = try SnapshotLocator(workspace: workspace).resolve(snapshot)
        answer(try QueryResult.run(sql, on: url, limits: QueryLimits(seconds: timeout)).formatted(as: format),
               terminator: "")
    }
}

extension QueryResult.Format: ExpressibleByArgument {}

/// Turns `latest`, `latest-<pipeline>` or a path into a snapshot file.
struct SnapshotLocator {
    let workspace: String

    var store: SnapshotStore {
        SnapshotStore(directory: URL(fileURLWithPath: workspace).appendingPathComponent("snapshots"))
    }

    func resolve(_ name: String) throws -> URL {
        if name == "latest" {
            let links = ((try? FileManager.default.contentsOfDirectory(atPath: store.directory.path)) ?? [])
                .filter { $0.hasPrefix("latest-") && !$0.hasSuffix(SnapshotStore.reportSuffix) }.sorted()
            guard links.count == 1 else {
                throw Failure(.snapshot, links.isEmpty
                              ? "no snapshot has been published in this workspace yet; pass the workspace a pipeline "
                                + "runs in (--workspace DIR) or a snapshot file's path"
                              : "several pipelines have published (\(links.joined(separator: ", "))); name one as latest-<pipeline>",
                              at: store.directory.path)
            }
            return try resolve(links[0])
        }
        if name.hasPrefix("latest-"), !name.contains("/") {
            guard let url = store.latest(pipeline: String(name.dropFirst("latest-".count))) else {
                throw Failure(.snapshot, "no snapshot published for this pipeline in this workspace; pass the "
                              + "workspace it runs in (--workspace DIR) or a snapshot file's path", at: store.latestLink(
                    pipeline: String(name.dropFirst("latest-".count))).path)
            }
            return url
        }
        return URL(fileURLWithPath: name)
    }
}
