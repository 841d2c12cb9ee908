import FoodModel
import Testing

/// Times of day as hours pages print them and as people type them.
@Suite struct ClockTimeTests {
    @Test(arguments: [
        ("10:00am", 600), ("12:00am", 0), ("12:30pm", 750), ("6:30pm", 1110), ("6:30 PM", 1110), ("7pm", 1140),
        ("18:30", 1110), ("00:05", 5), ("23:59", 1439),
    ])
    func readsPrintedAndTypedTimes(_ text: String, _ minutes: Int) {
        #expect(ClockTime(text)?.minutes == minutes)
    }

    @Test(arguments: ["25:00", "13:00pm", "0:30am", "7", "18:5", "18:60", "noon", ""])
    func refusesWhatIsNoTime(_ text: String) {
        #expect(ClockTime(text) == nil)
    }

    @Test func openingsEndBeforeTheirClosingAndMayRunPastMidnight() throws {
        let dinner = (opens: try #require(ClockTime("5:00pm")), closes: try #require(ClockTime("9:00pm")))
        #expect(try #require(ClockTime("17:00")).isWithin(opens: dinner.opens, closes: dinner.closes))
        #expect(!(try #require(ClockTime("21:00")).isWithin(opens: dinner.opens, closes: dinner.closes)))
        let late = (opens: try #require(ClockTime("9:00pm")), closes: try #require(ClockTime("12:00am")))
        #expect(try #require(ClockTime("23:30")).isWithin(opens: late.opens, closes: late.closes))
        #expect(!(try #require(ClockTime("00:00")).isWithin(opens: late.opens, closes: late.closes)))
        #expect(!(try #require(ClockTime("20:59")).isWithin(opens: late.opens, closes: late.closes)))
        // Past midnight: the small hours belong to the day after the opening's own.
        let small = (opens: try #require(ClockTime("9:00pm")), closes: try #require(ClockTime("2:00am")))
        #expect(try #require(ClockTime("23:30")).isWithin(opens: small.opens, closes: small.closes))
        #expect(!(try #require(ClockTime("00:30")).isWithin(opens: small.opens, closes: small.closes)))
        #expect(try #require(ClockTime("00:30")).isAfterMidnight(within: small.opens, closes: small.closes))
        #expect(!(try #require(ClockTime("02:00")).isAfterMidnight(within: small.opens, closes: small.closes)))
        #expect(!(try #require(ClockTime("00:00")).isAfterMidnight(within: late.opens, closes: late.closes)))
        #expect(!(try #require(ClockTime("18:00")).isAfterMidnight(within: dinner.opens, closes: dinner.closes)))
    }
}
