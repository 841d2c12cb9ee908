import BenchmarkCorpus
import Foundation

/// `commissary-bench`: times real pipeline runs on generated corpora against the floors of the
/// libraries they use, each scenario in a child process of this same executable, and prints one
/// table. See docs/performance.md.
let arguments = Array(CommandLine.arguments.dropFirst())
do {
    if arguments.first == "child" {
        try await Child.run(Array(arguments.dropFirst()))
    } else if arguments.first == "changes" {
        try ChangeFileBench.run(try Settings(Array(arguments.dropFirst())))
    } else if arguments.first == "postgres" {
        try PostgresBench.run(try Settings(Array(arguments.dropFirst())))
    } else if arguments.first == "estimates" {
        try EstimateBench.run(try Settings(Array(arguments.dropFirst())))
    } else {
        try Bench.run(try Settings(arguments))
    }
} catch {
    log("error: \(error)")
    exit(1)
}
