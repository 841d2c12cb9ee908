import Foundation
import HTML

/// The open feeds of a folder read by parsers that are not Commissary's: each OpenMensa file
/// validated by libxml2 against OpenMensa's own XSD (`../shared/data/openmensa`), each calendar
/// parsed by Python's `icalendar` (installed by `scripts/test` into `.build/tools`), each JSON
/// file by Foundation. What they read comes back for the tests to check values against.
public enum FeedValidation {
    public static let openMensaSchema = Paths.sharedData.appendingPathComponent("openmensa/open-mensa-v2.xsd")
    public static let python = Paths.packageRoot.appendingPathComponent(".build/tools/bin/python3")

    /// One event as `icalendar` read it: its dates as ISO text (a date alone for an all-day one).
    public struct Event: Hashable, Sendable, Decodable {
        public var uid: String
        public var summary: String
        public var start: String
        public var end: String?
        public var timeZone: String?
        public var description: String
        public var transparent: Bool
    }

    /// Every problem of the folder's XML files against the XSD, one line each, naming the file.
    public static func openMensaProblems(in folder: URL) throws -> [String] {
        let schema = try XMLSchemaValidator(file: openMensaSchema)
        return try files(in: folder, ending: ".xml").flatMap { file in
            try schema.problems(in: Data(contentsOf: file), location: file.path).map { "\(file.lastPathComponent): \($0)" }
        }
    }

    /// The events of each calendar of the folder, by file name, as `icalendar` parsed them; a
    /// file it refuses, or whose lines break RFC 5545's rules (CRLF, 75 octets, an event
    /// without UID, DTSTAMP or DTSTART), throws with what is wrong.
    public static func calendars(in folder: URL) throws -> [String: [Event]] {
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            throw ValidationFailure("no Python with icalendar at \(python.path): run scripts/test, which installs it")
        }
        let paths = try files(in: folder, ending: ".ics").map(\.path)
        let outcome = try ExternalProgram.run(python, ["-c", calendarScript] + paths)
        guard outcome.status == 0 else { throw ValidationFailure("icalendar refused a calendar: \(outcome.output)") }
        return try JSONDecoder().decode([String: [Event]].self, from: Data(outcome.output.utf8))
    }

    static func files(in folder: URL, ending suffix: String) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.lastPathComponent.hasSuffix(suffix) }.sorted { $0.path < $1.path }
    }

    public struct ValidationFailure: Error, CustomStringConvertible {
        public var description: String
        init(_ description: String) { self.description = description }
    }

    /// Parses each file with `icalendar`, checks the lines itself, prints the events as JSON.
    static let calendarScript = #"""
        import json, os, sys
        import icalendar
        result = {}
        for path in sys.argv[1:]:
            raw = open(path, "rb").read()
            name = os.path.basename(path)
            assert raw.endswith(b"\r\n"), name + ": does not end with CRLF"
            for number, line in enumerate(raw.split(b"\r\n")[:-1], 1):
                assert b"\n" not in line and b"\r" not in line, "%s:%d: a bare line break" % (name, number)
                assert len(line) <= 75, "%s:%d: %d octets" % (name, number, len(line))
            calendar = icalendar.Calendar.from_ical(raw)
            assert calendar.get("VERSION") == "2.0" and calendar.get("PRODID"), name + ": no VERSION or PRODID"
            events = []
            for component in calendar.walk():
                assert not component.errors, "%s: %s" % (name, component.errors)
                if component.name != "VEVENT":
                    continue
                for key in ("UID", "DTSTAMP", "DTSTART", "SUMMARY"):
                    assert key in component, "%s: an event without %s" % (name, key)
                component.decoded("DTSTAMP")
                start = component.get("DTSTART")
                end = component.get("DTEND")
                events.append({
                    "uid": str(component["UID"]), "summary": str(component["SUMMARY"]),
                    "start": component.decoded("DTSTART").isoformat(),
                    "end": component.decoded("DTEND").isoformat() if end is not None else None,
                    "timeZone": start.params.get("TZID"),
                    "description": str(component.get("DESCRIPTION", "")),
                    "transparent": str(component.get("TRANSP", "")) == "TRANSPARENT"})
            result[name] = events
        print(json.dumps(result))
        """#
}
