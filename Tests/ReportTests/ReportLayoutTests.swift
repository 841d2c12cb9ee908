import FoodModel
import Testing
@testable import Report

/// The page's own measuring and grouping, on values worked out by hand: the width estimate that
/// sizes every label (DejaVu Sans's advances, in thousandths of an em, with 10% to spare), the
/// cut with an ellipsis, and the checks grouped one entry per day.
@Suite struct ReportLayoutTests {
    @Test func aTextIsAsWideAsItsCharactersAdvancesWithAMargin() {
        // "Wi": W 989 + i 278 = 1267 thousandths of 10 px, × 1.1.
        #expect(abs(TextWidth.of("Wi", size: 10) - 13.937) < 1e-9)
        // A character outside ASCII counts as a full em: 1000 thousandths of 20 px, × 1.1.
        #expect(abs(TextWidth.of("é", size: 20) - 22) < 1e-9)
    }

    @Test func aNameTooLongForItsRoomIsCutWithAnEllipsisAndKeptAsATooltip() {
        // "WWWW" at 10 px is 43.5 px; "WW…" 32.8 (2 × 989 + 1000); "W…" 21.9 fits in 30.
        #expect(TextWidth.fitting("WWWW", size: 10, width: 30) == "W…")
        #expect(TextWidth.fitting("WWWW", size: 10, width: 44) == "WWWW")
        // Not even the ellipsis (11 px) fits in 10 px: the label is left out.
        #expect(TextWidth.fitting("WWWW", size: 10, width: 10) == nil)
        let label = SVGChart.text("Epicuria at Ackerman", x: 0, y: 0, size: 10, room: 40)
        #expect(label.contains("<title>Epicuria at Ackerman</title>") && label.contains(">Epic…</text>"))
        #expect(!SVGChart.text("Covel", x: 0, y: 0, size: 10, room: 40).contains("<title>"))
    }

    @Test func theChecksOfADayAreOneEntryAndAMessageRepeatedIsKeptOnce() {
        let records = [
            ("partition_warning", "2025-04-07: 27 food document(s) could not be read"),
            ("partition_warning", "2025-04-08: 196 food document(s) could not be read"),
            ("partition_warning", "2025-04-07: 27 food document(s) could not be read"),
            ("partition_warning", "2025-04-07: recipe 1810 has no portions"),
            ("labelled_share", "ucla-jamix: 7628 of 10956 menu item(s) carry a label; lowest day 2025-04-16 (68.7%)"),
        ].map { CheckGroup.Record(name: $0.0, severity: "warning", passed: false, message: $0.1) }
        let groups = CheckGroup.grouped(records)
        #expect(groups.map(\.name) == ["partition_warning", "labelled_share"])
        #expect(groups[0].failed == 4)
        #expect(groups[0].entries.map(\.day) == ["2025-04-07", "2025-04-08"])
        #expect(groups[0].entries[0].text == "27 food document(s) could not be read; recipe 1810 has no portions")
        // A date the message mentions after its subject is not the day it is about.
        #expect(groups[1].entries.map(\.day) == [nil])
        #expect(CheckGroup.day(of: "ucla/2025-04-09 is stale: refused") == "2025-04-09")
        #expect(CheckGroup.day(of: "week 12025-04-091") == "2025-04-09")
        #expect(CheckGroup.day(of: "2025-4-09: short") == nil)
        #expect(CheckGroup.day(of: "caf\u{e9} 2025-04-09") == "2025-04-09")
        #expect(CheckGroup.day(of: "") == nil)
    }

    @Test func failuresComeFirstErrorsBeforeStaleBeforeWarnings() {
        let records = [("min_menu_items", "error", true), ("unknown_code", "warning", false),
                       ("stale_partition", "stale", false), ("required_restaurants", "error", false)]
            .map { CheckGroup.Record(name: $0.0, severity: $0.1, passed: $0.2, message: $0.0) }
        #expect(CheckGroup.grouped(records).map(\.name)
                == ["required_restaurants", "stale_partition", "unknown_code", "min_menu_items"])
    }

    @Test func countAxesTickWholeNumbersAndEndPastTheLargestValue() {
        // Largest 228 in about five steps: 45.6 rounds up to a step of 50, so 0…250.
        #expect(ValueAxis(maximum: 228, unit: "swipes").ticks == [0, 50, 100, 150, 200, 250])
        // One recipe per category: whole steps of 1, not fifths.
        #expect(ValueAxis(maximum: 1, unit: "recipes", whole: true).ticks == [0, 1])
        // A share in quarters.
        #expect(ValueAxis(maximum: 100, unit: "%", count: 4).ticks == [0, 25, 50, 75, 100])
        // Fifths of a gram, printed without trailing zeros.
        let grams = ValueAxis(maximum: 1, unit: "g")
        #expect(grams.ticks.map(grams.label) == ["0", "0.2", "0.4", "0.6", "0.8", "1"])
    }

    /// A year and a day are drawn day by day; a day more, week by week, each week named by its
    /// Monday. 2025-01-01 is a Wednesday: its week starts on Monday 2024-12-30; 2026-01-02, a
    /// Friday, is in the week of 2025-12-29, 52 weeks later: 53 columns.
    @Test func aRangeLongerThanAYearIsCutIntoWeeksFromTheirMondays() throws {
        let first = try #require(ServiceDate("2025-01-01"))
        let daily = CalendarColumns(from: first, to: try #require(ServiceDate("2026-01-01")))
        #expect(daily.grain == .day && daily.starts.count == 366)
        #expect(daily.name(first) == "2025-01-01")
        let weekly = CalendarColumns(from: first, to: try #require(ServiceDate("2026-01-02")))
        #expect(weekly.grain == .week && weekly.starts.count == 53)
        #expect(weekly.starts.first?.description == "2024-12-30" && weekly.starts.last?.description == "2025-12-29")
        #expect(weekly.starts.allSatisfy { $0.isoWeekday == 1 })
        #expect(weekly.start(of: try #require(ServiceDate("2025-03-09"))).description == "2025-03-03")
        #expect(weekly.name(try #require(ServiceDate("2025-03-03"))) == "week of 2025-03-03")
    }

    /// The page's numbers are written as `printf` writes them, checked here against `printf`
    /// itself: values chosen by hand at the edges (halves that binary holds exactly and rounds to
    /// even, halves it holds a little under or over, a negative that rounds to zero, values past
    /// the integer path), then a spread of coordinates and shares: a walk over ±2,000 whose step
    /// no power of two divides, so that each value has other binary digits, and the eighths, the
    /// thousandths and the ten millions of each.
    @Test func numbersArePrintedAsPrintfPrintsThem() {
        #expect(HTML.number(0.125) == "0.12")
        #expect(HTML.number(0.375) == "0.38")
        #expect(HTML.number(2.675) == "2.67")
        #expect(HTML.number(1.005) == "1.00")
        #expect(HTML.number(-0.001) == "-0.00")
        #expect(HTML.number(-12.5) == "-12.50")
        #expect(HTML.number(3.0) == "3")
        #expect(HTML.number(0.3) == "0.30")
        #expect(HTML.percent(1, of: 3) == "33.3%")
        #expect(HTML.percent(1, of: 8) == "12.5%")
        #expect(HTML.percent(1, of: 16) == "6.2%")
        #expect(HTML.percent(0, of: 0) == "–")
        for step in 0..<20_000 {
            let value = -2_000 + Double(step) * 0.200_013_7
            let cut = (value * 8).rounded() / 8
            for each in [value, cut, value / 1_000, value * 1e7] {
                #expect(HTML.fixed(each, decimals: 2) == String(format: "%.2f", each))
                #expect(HTML.fixed(each, decimals: 1) == String(format: "%.1f", each))
            }
        }
        for whole in 1...400 {
            for part in 0...whole where part % 7 == 0 || whole - part < 3 {
                #expect(HTML.percent(part, of: whole)
                        == String(format: "%.1f%%", 100 * Double(part) / Double(whole)))
            }
        }
    }
}
