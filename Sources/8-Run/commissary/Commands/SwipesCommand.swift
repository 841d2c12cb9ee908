import ArgumentParser
import Basics
import CommandAnswers
import FoodModel
import Foundation
import Pipeline

struct SwipesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "swipes",
        abstract: "Print a meal plan's expected swipe balance and week label on a day.",
        discussion: """
            Reads the swipe_balance table of a snapshot (default: latest), whose meal periods come \
            from the published menus; with --pipeline it computes from that pipeline's plans and \
            terms files instead, on the plans' default periods.
            """)

    @Option(help: "The plan code: 19P, 19R, 14P, 14R, 11P, 11R.")
    var plan: String

    @Option(help: "The day, YYYY-MM-DD.")
    var date: String

    @Option(help: "One meal period (breakfast, brunch, lunch, dinner); default: every period of the day.")
    var meal: String?

    @Option(help: "A snapshot file, latest, or latest-<pipeline>.")
    var snapshot = "latest"

    @Option(help: "Compute from this pipeline file's `swipes:` section instead of a snapshot.")
    var pipeline: String?

    @Option(help: "The workspace whose snapshots/ folder `latest` refers to.")
    var workspace = "."

    func run() throws {
        guard let day = ServiceDate(date) else {
            throw ValidationError("--date: expected YYYY-MM-DD, found \"\(date)\"")
        }
        let lines: [SwipeLookup.Line]
        if let pipeline {
            let spec = try SpecReader.read(URL(fileURLWithPath: pipeline))
            guard let settings = spec.swipes else {
                throw Failure.badInput("the pipeline has no `swipes:` section", at: pipeline)
            }
            lines = try SwipeLookup.fromFiles(settings, plan: plan, date: day, meal: meal)
        } else {
            let url = try SnapshotLocator(workspace: workspace).resolve(snapshot)
            lines = try SwipeLookup.fromSnapshot(url, plan: plan, date: day, meal: meal)
        }
        for line in lines {
            answer("\(line.plan)  \(line.date)  \(line.term), \(line.weekLabel)  after \(line.period): \(line.balance)")
        }
    }
}
