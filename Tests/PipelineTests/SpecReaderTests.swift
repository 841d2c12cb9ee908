import Basics
import FoodModel
import Foundation
import Nutrition
import Pipeline
import YAMLConfig
import SourceAdapters
import Testing
import TestSupport

@Suite struct SpecReaderTests {
    /// A pipeline file in a temporary folder beside a SampleData-like folder, so that relative
    /// locations resolve.
    private func read(_ yaml: String) throws -> PipelineSpec {
        let folder = try Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("site"),
                                                withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: folder.appendingPathComponent("meals.json"))
        let file = folder.appendingPathComponent("test.yml")
        try Data(yaml.utf8).write(to: file)
        return try SpecReader.read(file)
    }

    private func error(_ yaml: String) throws -> Failure {
        do {
            _ = try read(yaml)
        } catch let error as Failure {
            return error
        }
        Issue.record("expected a Failure")
        throw CancellationError()
    }

    private let valid = """
        pipeline: demo
        sources:
          - name: menus
            adapter: ucla-menu-site
            location: site
            dates:
              from: 2026-10-10
              to: 2026-10-12
        """

    @Test func readsTheBundledPipelines() throws {
        let sample = try SpecReader.read(Paths.pipelines.appendingPathComponent("sample.yml"))
        #expect(sample.name == "sample")
        #expect(sample.sources.map(\.adapter.name) == ["ucla-menu-site", "mealdb-dump"])
        let days = try #require(sample.sources[0].dates).days(today: try #require(ServiceDate("2000-01-01")))
        #expect(days.map(\.description) == ["2026-10-10", "2026-10-11", "2026-10-12"])
        // Named as the pages print them, read through the places file: Covel is Epicuria at Covel.
        #expect(sample.checks.requiredRestaurants == ["Epicuria at Covel", "De Neve", "Bruin Plate"])
        guard case .directory(let folder) = sample.sources[0].location else {
            Issue.record("the sample menu source should be a folder")
            return
        }
        #expect(folder.path.hasSuffix("SampleData/menu.dining.ucla.edu"))

        let retired = try SpecReader.read(Paths.pipelines.appendingPathComponent("ucla-menu-site-2019.yml"))
        #expect(retired.sources[0].location == .web("https://menu.dining.ucla.edu"))
        #expect(retired.sources[0].dates == .upcoming(daysAhead: 2))
        #expect(retired.fetch.delayMilliseconds == 500)
        let nightly = try SpecReader.read(Paths.pipelines.appendingPathComponent("nightly-ucla.yml"))
        #expect(nightly.sources[0].adapter.name == "ucla-jamix")
        #expect(nightly.sources[0].location == .web("https://dining.ucla.edu/wp-content/uploads/jamix"))
        #expect(nightly.sources[0].dates == .upcoming(daysAhead: 5))
        #expect(nightly.places?.canonicalName(of: "Covel Epicuria") == "Epicuria at Covel")
        #expect(nightly.places?.canonicalName(of: "covel  dining") == "Epicuria at Covel")
        #expect(nightly.places?.canonicalName(of: "Sproul Dining") == nil)
        _ = try SpecReader.read(Paths.pipelines.appendingPathComponent("recipes-backfill.yml"))
    }

    @Test func historyIsOneOfThreeForms() throws {
        #expect(try read(valid + "\nhistory: {keep: all}\n").history == .all)
        #expect(try read(valid + "\nhistory: {since: 2025-09-20}\n").history == .since(ServiceDate("2025-09-20")!))
        #expect(try read(valid + "\nhistory: {last_days: 120}\n").history == .lastDays(120))
        #expect(try read(valid).history == nil)
        #expect(try error(valid + "\nhistory: {keep: some}\n").place?.key == "history.keep")
        #expect(try error(valid + "\nhistory: {last_days: 0}\n").message.contains("between 1 and 7320"))
        #expect(try error(valid + "\nhistory: {keep: all, last_days: 3}\n").message.contains("give one of"))
        // Days kept by `last_days` count back from today, today included.
        let today = ServiceDate("2025-04-13")!
        #expect(HistoryPolicy.lastDays(7).keeps(ServiceDate("2025-04-07")!, today: today))
        #expect(!HistoryPolicy.lastDays(7).keeps(ServiceDate("2025-04-06")!, today: today))
    }

    @Test func aDegradedDayIsRefusedUnlessThePipelineSaysWarn() throws {
        #expect(try read(valid).checks.degradedDay == DegradedDayPolicy(all: .refuse))
        #expect(try read(valid + "\nchecks:\n  degraded_day: warn\n").checks.degradedDay == DegradedDayPolicy(all: .warn))
        #expect(try read(valid + "\nchecks:\n  degraded_day: {missing_meals: warn}\n").checks.degradedDay
            == DegradedDayPolicy(placeholderNames: .refuse, missingMeals: .warn, zeroedLabels: .refuse))
        let wrong = try error(valid + "\nchecks:\n  degraded_day: ignore\n")
        #expect(wrong.place?.key == "checks.degraded_day" && wrong.message.contains("expected refuse or warn"))
        #expect(try error(valid + "\nchecks:\n  degraded_day: {missing_meal: warn}\n").message.contains("missing_meal"))
    }

    @Test func theSampleComputesUnderUCLAsLabelValues() throws {
        let standard = try #require(try SpecReader.read(Paths.pipelines.appendingPathComponent("sample.yml")).dailyValues)
        #expect(standard.name == "ucla-label")
        // docs/nutrition.md: pre-2016 FDA values with carbohydrate 130 g and fiber 25 g.
        #expect(standard.values[.totalCarbohydrate] == .init(amount: 130, unit: .g))
        #expect(standard.values[.dietaryFiber] == .init(amount: 25, unit: .g))
        #expect(standard.values[.sodium] == .init(amount: 2400, unit: .mg))
        #expect(standard.values.count == 6)
    }

    @Test func anUnknownStandardIsNamed() throws {
        let failure = try error(valid + "\ndv_standard: fda-1990\n")
        #expect(failure.place?.key == "dv_standard")
        #expect(failure.message.contains("fda-1990"))
    }

    @Test func upcomingDatesStartToday() throws {
        let today = try #require(ServiceDate("2026-12-31"))
        #expect(DateSelection.upcoming(daysAhead: 2).days(today: today).map(\.description)
                == ["2026-12-31", "2027-01-01", "2027-01-02"])
    }

    @Test func aValidFileReadsWithDefaults() throws {
        let spec = try read(valid)
        let settings = try #require(spec.sources[0].settings as? UCLAMenuSiteAdapter.Settings)
        #expect(settings.recipePages)
        #expect(settings.hours)
        #expect(spec.checks.maxDropFromPrevious == 0.5)
    }

    /// A pipeline's name (it names snapshot files) and a credentials variable's name, each by
    /// its rule; a letter beyond ASCII is outside both.
    @Test func namesFollowTheirRules() throws {
        func named(_ name: String) -> String { valid.replacingOccurrences(of: "pipeline: demo", with: "pipeline: \(name)") }
        for name in ["demo-2", "0night", "a"] {
            #expect(try read(named(name)).name == name)
        }
        for name in ["-demo", "Demo", "demo_menus", "caf\u{e9}", "de mo"] {
            #expect(try error(named(name)).message.contains("must be lower-case letters, digits and dashes"), "\(name)")
        }
        func credentials(_ variable: String) -> String {
            valid.replacingOccurrences(of: "location: site", with: "location: https://menu.example.edu/\n    credentials_env: \(variable)")
        }
        for variable in ["MENU_CREDENTIALS", "_x1"] {
            #expect(throws: Never.self, "\(variable)") { try read(credentials(variable)) }
        }
        for variable in ["1MENU", "MENU-CREDENTIALS", "M\u{c9}NU"] {
            #expect(try error(credentials(variable)).message.contains("expected the name of an environment variable"),
                    "\(variable)")
        }
    }

    @Test func anUnknownKeyNamesTheKeyAndItsLine() throws {
        let failure = try error(valid + "\n    recipe_page: true\n")
        #expect(failure.place?.key == "sources[0].recipe_page")
        #expect(failure.place?.line == 9)
        #expect(failure.description.contains("test.yml:9:"))
        #expect(failure.message.contains("unknown key"))
    }

    @Test func aBadDateNamesTheKeyLineAndValue() throws {
        let failure = try error(valid.replacingOccurrences(of: "to: 2026-10-12", with: "to: 2026-13-01"))
        #expect(failure.place?.key == "sources[0].dates.to")
        #expect(failure.place?.line == 8)
        #expect(failure.message.contains("2026-13-01"))
    }

    @Test func aMissingRequiredKeyIsNamed() throws {
        let failure = try error(valid.replacingOccurrences(of: "    adapter: ucla-menu-site\n", with: ""))
        #expect(failure.place?.key == "sources[0].adapter")
        #expect(failure.message == "is required")
    }

    @Test func anUnknownAdapterListsTheKnownOnes() throws {
        let failure = try error(valid.replacingOccurrences(of: "ucla-menu-site", with: "ucla-menus"))
        #expect(failure.place?.line == 4)
        #expect(failure.message.contains("ucla-menu-site"))
        #expect(failure.message.contains("mealdb-dump"))
    }

    @Test func aMissingFolderIsNamed() throws {
        let failure = try error(valid.replacingOccurrences(of: "location: site", with: "location: nowhere"))
        #expect(failure.place?.key == "sources[0].location")
        #expect(failure.message.contains("nowhere"))
    }

    @Test func brokenYAMLGivesTheLine() throws {
        let failure = try error("pipeline: demo\nsources:\n  - name: [unclosed\n")
        #expect(failure.place?.line != nil)
        #expect(failure.message.hasPrefix("not valid YAML"))
    }

    @Test func wrongTypesAreExplained() throws {
        #expect(try error("pipeline: demo\nsources: menus\n").message.contains("expected a list"))
        #expect(try error(valid + "\nchecks:\n  min_menu_items: many\n").message.contains("whole number"))
        #expect(try error(valid + "\nchecks:\n  max_drop_from_previous: 2\n").place?.key == "checks.max_drop_from_previous")
        #expect(try error("pipeline: Demo Pipeline\nsources: []\n").place?.key == "pipeline")
    }

    @Test func aMenuSourceNeedsDatesAndADumpNeedsAFile() throws {
        #expect(try error("""
            pipeline: demo
            sources:
              - name: menus
                adapter: ucla-menu-site
                location: site
            """).message.contains("dates"))
        #expect(try error("""
            pipeline: demo
            sources:
              - name: meals
                adapter: mealdb-dump
                location: site
            """).place?.key == "sources[0].location")
        let spec = try read("""
            pipeline: demo
            sources:
              - name: meals
                adapter: mealdb-dump
                location: meals.json
            """)
        #expect(spec.sources[0].settings is MealDBDumpAdapter.Settings)
    }

    @Test func anEmptyFileSaysWhatIsNeeded() throws {
        #expect(try error("").message.contains("empty"))
    }
}

/// A pipeline whose `key` names a file holding `text`, beside it in a temporary folder, read.
private func pipelineNaming(_ text: String, as name: String, under key: String) throws -> PipelineSpec {
    let folder = try Paths.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data(text.utf8).write(to: folder.appendingPathComponent(name))
    try Data("[]".utf8).write(to: folder.appendingPathComponent("meals.json"))
    return try SpecReader.parse("""
        pipeline: demo
        \(key): \(name)
        sources:
          - name: dump
            adapter: mealdb-dump
            location: meals.json
        """, file: folder.appendingPathComponent("demo.yml"))
}

/// A places file's kinds and coordinates are checked when it is read, with the file, the line
/// and the key.
@Suite struct PlacesFileTests {
    private func read(_ places: String) throws -> PipelineSpec {
        try pipelineNaming(places, as: "campus.yml", under: "places")
    }

    @Test func kindsAndCoordinatesAreRead() throws {
        let spec = try read("""
            campus: Test
            restaurants:
              - name: Hall
                aliases: [The Hall]
                kind: residential hall
                latitude: 34.0718
                longitude: -118.45
                coordinates_source: a public map
              - name: Kiosk
            """)
        let places = try #require(spec.places).places
        #expect(places.map(\.name) == ["Hall", "Kiosk"])
        #expect(places[0].coordinates == Coordinates(latitude: 34.0718, longitude: -118.45))
        #expect(places[0].kind == "residential hall" && places[0].campus == "Test")
        #expect(places[1].coordinates == nil && places[1].kind == nil)
    }

    @Test func aWrongKindOrHalfACoordinateIsRefused() throws {
        let cases: [(String, String)] = [
            ("kind: dorm", "is not a kind of place"),
            ("latitude: 34.07", "give both latitude and longitude"),
            ("latitude: 134.07\n    longitude: 1\n    coordinates_source: x", "latitude"),
            ("latitude: 34.07\n    longitude: 1", "coordinates_source"),
        ]
        for (lines, says) in cases {
            let error = #expect(throws: Failure.self) {
                try read("restaurants:\n  - name: Hall\n    \(lines)\n")
            }
            #expect(error?.description.contains(says) == true, "\(lines): \(error?.description ?? "")")
            #expect(error?.description.contains("campus.yml") == true)
        }
    }
}

/// An `hours:` file's days, times and zones are checked when it is read, with the file, the line
/// and the key; its weeks expand into rows for the days asked.
@Suite struct HoursFileTests {
    private func read(_ hours: String) throws -> PipelineSpec {
        try pipelineNaming(hours, as: "hours.yml", under: "hours")
    }

    @Test func aWeekExpandsIntoTheDaysRowsAndAClosedDateIntoOneRowWithItsReason() throws {
        let spec = try read("""
            source: a test
            campus: Test
            restaurants:
              - name: Hall
                time_zone: America/Chicago
                meals:
                  - {meal: Lunch, days: [Monday, wed], opens: "11:00", closes: "1:30pm"}
                closed:
                  - {date: 2026-03-25, reason: Spring Break}
            """)
        let file = try #require(spec.hours)
        // 2026-03-23 is a Monday, the 24th a Tuesday, the 25th a Wednesday (closed).
        let days = ["2026-03-23", "2026-03-24", "2026-03-25"].compactMap(ServiceDate.init)
        #expect(file.entries(on: days) == [
            HoursEntry(restaurant: "Hall", date: days[0], meal: "Lunch", opens: "11:00", closes: "1:30pm", isClosed: false,
                       campus: "Test"),
            HoursEntry(restaurant: "Hall", date: days[2], meal: "All day", opens: nil, closes: nil, isClosed: true,
                       note: "Spring Break", campus: "Test"),
        ])
        #expect(file.places == [Place(name: "Hall", campus: "Test", timeZone: "America/Chicago")])
        // Under the places file's name; a day whose source published hours keeps the source's.
        let published = HoursEntry(restaurant: "The Hall", date: days[0], meal: "Lunch", opens: "11:30", closes: "14:00",
                                   isClosed: false)
        #expect(file.entries(on: days, renaming: { "The " + $0 }, besides: [published]).map(\.restaurant) == ["The Hall"])
        #expect(file.entries(on: days, renaming: { "The " + $0 }, besides: [published]).map(\.date) == [days[2]])
    }

    @Test func aWrongDayTimeZoneOrKeyIsRefusedAtItsLine() throws {
        let cases: [(String, String, String)] = [
            ("days: [mon, someday], opens: \"07:00\", closes: \"09:00\"", "is not a day of the week", "hours.yml:5"),
            ("days: [mon], opens: \"25:00\", closes: \"09:00\"", "is not a time of day", "opens"),
            ("days: [mon], opens: \"07:00\", closes: \"09:00\", price: 3", "price", "hours.yml:5"),
        ]
        for (meal, says, place) in cases {
            let error = #expect(throws: Failure.self) {
                try read("source: a test\nrestaurants:\n  - name: Hall\n    meals:\n      - {meal: Lunch, \(meal)}\n")
            }
            #expect(error?.description.contains(says) == true, "\(meal): \(error?.description ?? "")")
            #expect(error?.description.contains(place) == true, "\(meal): \(error?.description ?? "")")
        }
        let zone = #expect(throws: Failure.self) { try read("source: a test\ntime_zone: Mars/Base\nrestaurants: []\n") }
        #expect(zone?.description.contains("not an IANA time zone") == true)
        let unsourced = #expect(throws: Failure.self) { try read("restaurants: []\n") }
        #expect(unsourced?.description.contains("source") == true)
    }
}
