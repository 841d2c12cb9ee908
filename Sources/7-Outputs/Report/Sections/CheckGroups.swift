import Foundation

/// The run's checks as the page lists them: one group per kind of check, and in a group one
/// entry per day its messages name (the messages of one day together, the same message once),
/// else one per distinct message, in the order the run recorded them.
struct CheckGroup {
    struct Record {
        var name: String
        var severity: String
        var passed: Bool
        var message: String
    }

    struct Entry {
        var day: String?
        var messages: [String]
        /// The messages as the page prints them beside their day: without the day they start with.
        var text: String {
            messages.map { message in
                guard let day, message.hasPrefix(day + ": ") else { return message }
                return String(message.dropFirst(day.count + 2))
            }.joined(separator: "; ")
        }
    }

    let name: String
    let severity: String
    var passed = 0
    var failed = 0
    var entries: [Entry] = []

    /// Groups in the order that matters to a reader: failed errors, stale, failed warnings, then
    /// the rest, each in the order the run first recorded it.
    static func grouped(_ records: [Record]) -> [CheckGroup] {
        var groups: [CheckGroup] = []
        var index: [String: Int] = [:]
        for record in records {
            let key = record.name + "|" + record.severity
            let position = index[key] ?? {
                groups.append(CheckGroup(name: record.name, severity: record.severity))
                index[key] = groups.count - 1
                return groups.count - 1
            }()
            groups[position].add(record)
        }
        let rank = { (group: CheckGroup) -> Int in
            switch (group.failed > 0, group.severity) {
            case (true, "error"): 0
            case (true, "stale"): 1
            case (true, "warning"): 2
            case (true, _): 3
            default: 4
            }
        }
        return groups.enumerated().sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }.map(\.element)
    }

    private mutating func add(_ record: Record) {
        if record.passed { passed += 1 } else { failed += 1 }
        let day = Self.day(of: record.message)
        if let position = entries.firstIndex(where: { $0.day == day && (day != nil || $0.messages == [record.message]) }) {
            if !entries[position].messages.contains(record.message) { entries[position].messages.append(record.message) }
        } else {
            entries.append(Entry(day: day, messages: [record.message]))
        }
    }

    /// The service day a message is about: a date in what it names before its first colon
    /// ("ucla/2025-04-09 is stale: …", "2025-04-08: 3 documents not found"), not one it mentions
    /// later ("…; lowest day 2016-08-07"), in ASCII digits as a service day is written. Swift's
    /// own regular expression: Foundation's would set up ICU's for the page.
    static func day(of message: String) -> String? {
        let subject = message.range(of: ": ").map { message[..<$0.lowerBound] } ?? Substring(message)
        return subject.firstMatch(of: /\d{4}-\d{2}-\d{2}/.asciiOnlyDigits()).map { String($0.output) }
    }
}
