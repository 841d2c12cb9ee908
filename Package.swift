// swift-tools-version: 6.1
import Foundation
import PackageDescription

/// Each adapter folder carries its source's documentation as `README.md` beside the code; the
/// compiler is told to leave them alone, found by looking, so that a new source needs no line here.
let adapterFolders = Context.packageDirectory + "/Sources/1-Sources/SourceAdapters"
let adapterDocs = ((try? FileManager.default.contentsOfDirectory(atPath: adapterFolders)) ?? [])
    .filter { FileManager.default.fileExists(atPath: "\(adapterFolders)/\($0)/README.md") }
    .map { "\($0)/README.md" }

let package = Package(
    name: "Commissary",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "commissary", targets: ["commissary"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/x-sheep/swift-property-based", exact: "2.0.1"),
    ],
    // `Sources/` is laid out as a night flows: what everything stands on (0), the sources (1),
    // fetching (2), parsing (3), the model (4), the checks (5), the snapshot (6), what is made
    // from it (7) and the run that drives them (8). Each module lives in the folder of its step
    // (docs/architecture.md has the table).
    targets: [
        // C at arm's length: each system library is wrapped once, by one Swift module.
        .systemLibrary(
            name: "CLibXML2",
            path: "Sources/3-Parsing/CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        // sqlite3_config, which is variadic, wrapped for Swift (process-wide SQLite settings).
        .systemLibrary(
            name: "CSQLiteConfig",
            path: "Sources/6-Snapshot/CSQLiteConfig",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // What Glibc's Swift module leaves out: openat2, reached through syscall, which is
        // variadic (DirectorySource), and mallopt (ProcessMemory).
        .systemLibrary(name: "CPlatform", path: "Sources/0-Foundation/CPlatform"),
        .systemLibrary(
            name: "CCurl",
            path: "Sources/2-Fetching/CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        .systemLibrary(
            name: "CLibPQ",
            path: "Sources/6-Snapshot/CLibPQ",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]
        ),
        // gzip for the change files published beside snapshots.
        .systemLibrary(
            name: "CZlib",
            path: "Sources/0-Foundation/CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),

        // What every module shares: timestamps, hashing, gzip, durable writes, free space, the
        // run lock, the build id, the version.
        .target(name: "Basics", dependencies: ["CPlatform", "CZlib", .product(name: "Crypto", package: "swift-crypto")], path: "Sources/0-Foundation/Basics"),
        // Values at the core: no I/O; the one shape of errors from Basics.
        .target(name: "FoodModel", dependencies: ["Basics"], path: "Sources/4-Model/FoodModel"),

        .target(name: "HTML", dependencies: ["Basics", "CLibXML2"], path: "Sources/3-Parsing/HTML"),
        .target(
            name: "Fetching",
            dependencies: [
                "Basics", "CCurl", "CPlatform",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/2-Fetching/Fetching"
        ),
        // What several source adapters share to read what sources print: a label's rows and
        // nutrient names, printed dates, HTML pages, JSON read by field name, UCLA's web codes.
        .target(name: "SourceReading", dependencies: ["Basics", "FoodModel", "HTML"], path: "Sources/3-Parsing/SourceReading"),
        // Pipeline files: YAML nodes whose errors name the file, the line and the key.
        .target(name: "YAMLConfig", dependencies: ["Basics", "FoodModel", .product(name: "Yams", package: "Yams")], path: "Sources/0-Foundation/YAMLConfig"),
        .target(name: "Nutrition", dependencies: ["FoodModel"], path: "Sources/5-Checks/Nutrition"),
        .target(name: "Swipes", dependencies: ["FoodModel"], path: "Sources/4-Model/Swipes"),
        // Nutrients of recipes that print none, estimated from their ingredients with a reference
        // (USDA SR24, an SQLite file a script builds): matching, weighing, summing.
        .target(
            name: "RecipeNutrition",
            dependencies: ["Basics", "FoodModel", "YAMLConfig", .product(name: "GRDB", package: "GRDB.swift"),
                           .product(name: "Yams", package: "Yams")],
            path: "Sources/4-Model/RecipeNutrition"
        ),
        .target(
            name: "Snapshot",
            dependencies: [
                "Basics", "FoodModel",
                .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's C interface as GRDB itself imports it, for binding bulk rows (RowInsert).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                "CSQLiteConfig",
            ],
            path: "Sources/6-Snapshot/Snapshot"
        ),
        // A published snapshot into PostgreSQL through libpq: built in its own schema, swapped in.
        .target(name: "PostgresTarget", dependencies: ["Basics", "CLibPQ", "Snapshot", .product(name: "GRDB", package: "GRDB.swift")], path: "Sources/6-Snapshot/PostgresTarget"),
        // Open feeds of a snapshot per restaurant: OpenMensa XML, iCalendar, a static JSON API.
        .target(name: "Feeds", dependencies: ["Basics", "FoodModel", "Snapshot"], path: "Sources/7-Outputs/Feeds"),
        // One HTML page per snapshot: charts as inline SVG, with their numbers (and links to its feeds).
        .target(name: "Report", dependencies: ["FoodModel", "Snapshot", "Feeds"], path: "Sources/7-Outputs/Report"),
        // The adapter seam, and one folder per source adapter behind it (AdapterRegistry).
        .target(
            name: "SourceAdapters",
            dependencies: ["Basics", "FoodModel", "HTML", "Fetching", "SourceReading", "Nutrition", "YAMLConfig"],
            path: "Sources/1-Sources/SourceAdapters",
            exclude: adapterDocs
        ),
        .target(
            name: "Pipeline",
            dependencies: [
                "Basics", "FoodModel", "Fetching", "SourceAdapters", "YAMLConfig", "Nutrition", "Snapshot", "Swipes",
                "Report", "PostgresTarget", "RecipeNutrition", "Feeds",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Sources/8-Run/Pipeline"
        ),
        // What a run tells people and machines: progress, its summary and plan, event lines, log
        // lines, the failure it ends with, its metrics file.
        .target(
            name: "RunReporting",
            dependencies: ["Basics", "FoodModel", "Pipeline", "Snapshot", .product(name: "Logging", package: "swift-log")],
            path: "Sources/7-Outputs/RunReporting"
        ),
        // What the commands other than `run` work out and lay out: places near a point, swipe
        // balances, the snapshots table, list formats, `parse`'s %DV and estimates, the favourites `watch` finds.
        .target(
            name: "CommandAnswers",
            dependencies: ["Basics", "FoodModel", "Pipeline", "Snapshot", "Swipes", "Nutrition", "RecipeNutrition",
                           "SourceAdapters", "YAMLConfig"],
            path: "Sources/7-Outputs/CommandAnswers"
        ),
        // Arguments in, a library called, failures out through the one ExitStatus table.
        .executableTarget(
            name: "commissary",
            dependencies: [
                "Basics", "Pipeline", "SourceAdapters", "Snapshot", "FoodModel", "Fetching", "Report", "RunReporting",
                "CommandAnswers", "Feeds", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/8-Run/commissary"
        ),

        // Benchmarks: the corpus generator (real 2016 menus as site pages, real meals at scale)
        // and the harness that times whole runs against the floors of libxml2 and SQLite.
        .target(name: "BenchmarkCorpus", dependencies: ["FoodModel", "SourceAdapters"], path: "Benchmarks/Corpus"),
        .executableTarget(
            name: "commissary-bench",
            dependencies: [
                "Basics", "BenchmarkCorpus", "Pipeline", "SourceAdapters", "HTML", "FoodModel", "Snapshot", "Report",
                "RecipeNutrition", "PostgresTarget",
                // The live nights' local feed server, and libcurl's floor.
                "TestSupport", "CCurl",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Benchmarks/Harness"
        ),

        .testTarget(name: "FoodModelTests", dependencies: ["FoodModel"]),
        .testTarget(name: "HTMLTests", dependencies: ["HTML", "TestSupport"]),
        // What tests share: a scripted HTTP server on 127.0.0.1, the repository paths, the binary, a
        // clock the test moves, the tests' own reading of saved real feeds (dated, hence FoodModel).
        // HTML for libxml2's XSD validation of the open feeds.
        .target(name: "TestSupport", dependencies: ["Basics", "FoodModel", "HTML"], path: "Tests/TestSupport"),
        // Checks that a change set replayed onto the older snapshot gives the newer, shared by the
        // pipeline's and PostgreSQL's tests; apart from TestSupport, which the bench links and
        // which therefore cannot use swift-testing.
        .target(name: "SnapshotTestSupport", dependencies: ["Snapshot", "TestSupport"], path: "Tests/SnapshotTestSupport"),
        .testTarget(
            name: "FetchingTests",
            dependencies: [
                "Fetching", "TestSupport",
                .product(name: "GRDB", package: "GRDB.swift"), .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "SourceReadingTests", dependencies: ["SourceReading"]),
        .testTarget(
            name: "SourceAdaptersTests",
            // Pipeline for `DocumentLog`, the reader a harvester is run with.
            dependencies: ["SourceAdapters", "SourceReading", "FoodModel", "Fetching", "TestSupport", "Basics", "Pipeline",
                           .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(name: "SwipesTests", dependencies: ["Swipes", "FoodModel", "SourceAdapters"]),
        .testTarget(
            name: "YAMLConfigTests",
            dependencies: ["YAMLConfig", "Basics", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(
            name: "RecipeNutritionTests",
            dependencies: ["RecipeNutrition", "FoodModel", "Basics", "SourceAdapters", "BenchmarkCorpus", "TestSupport",
                           .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .testTarget(name: "NutritionTests", dependencies: ["Nutrition", "FoodModel", "SourceAdapters"]),
        .testTarget(
            name: "SnapshotTests",
            dependencies: ["Snapshot", "SnapshotTestSupport", "FoodModel", "Fetching", "SourceReading",
                           .product(name: "GRDB", package: "GRDB.swift")]
        ),
        // Basics' logic: the parse cache's binary coder, the build id read from the binary (which
        // is why the binary is a dependency).
        .testTarget(name: "BasicsTests", dependencies: ["Basics", "FoodModel", "SourceAdapters", "TestSupport", "commissary"]),
        // The report page's own arithmetic (text widths, cuts, the checks' grouping); the page of
        // whole runs is checked in PipelineTests, which has the runs' fixtures.
        .testTarget(name: "ReportTests", dependencies: ["Report", "FoodModel"]),
        .testTarget(name: "BenchmarkTests", dependencies: ["BenchmarkCorpus", "SourceAdapters", "FoodModel"]),
        .testTarget(
            name: "PipelineTests",
            dependencies: [
                "Basics", "Pipeline", "SourceAdapters", "YAMLConfig", "Snapshot", "FoodModel", "Fetching", "Nutrition", "Swipes",
                "TestSupport", "SnapshotTestSupport", "commissary", "Report", "PostgresTarget", "RunReporting",
                "CommandAnswers", "Feeds", .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // A private PostgreSQL server on 127.0.0.1, started by the tests themselves.
        .testTarget(
            name: "PostgresTargetTests",
            dependencies: [
                "PostgresTarget", "Pipeline", "Snapshot", "FoodModel", "Basics", "TestSupport", "SnapshotTestSupport",
                "commissary", .product(name: "GRDB", package: "GRDB.swift"), .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "RunReportingTests", dependencies: ["RunReporting"]),
        // The open feeds of the sample, through the library and the binary's `feeds` command.
        .testTarget(
            name: "FeedsTests",
            dependencies: ["Feeds", "Snapshot", "Pipeline", "Report", "FoodModel", "TestSupport", "commissary",
                           .product(name: "GRDB", package: "GRDB.swift"), .product(name: "Logging", package: "swift-log")]
        ),
        // Faults, kills, full disks and hostile input against the real binary, server and pages.
        .testTarget(
            name: "ReliabilityTests",
            dependencies: [
                "Basics", "Pipeline", "SourceAdapters", "YAMLConfig", "Snapshot", "Fetching",
                "FoodModel", "HTML", "TestSupport", "SnapshotTestSupport", "commissary",
                .product(name: "PropertyBased", package: "swift-property-based"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
