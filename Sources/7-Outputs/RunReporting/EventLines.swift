import Basics
import Pipeline

/// One JSON object per line, for schedulers and log collectors: on standard error, where a
/// person's progress goes too, so that standard output holds only the run's summary; or
/// appended to the file `--events` names. Messages pass the written forms of `Redaction` once
/// more, whatever their origin: a password that reached one anyway stops here.
public struct JSONLinesObserver: RunObserver {
    public var output: CheckedOutput

    public init(output: CheckedOutput = .standardError) {
        self.output = output
    }

    /// Written straight to the file descriptor, unbuffered, so a consumer sees each event as
    /// it happens. A write that fails is kept by the output, for the command to report at its end.
    public func observe(_ event: RunEvent) {
        var event = event
        event.message = event.message.map(Redaction.apply)
        var line = EventLine.json(event)
        line += "\n"
        output.write(line)
    }
}

/// An event as `UserJSON.line` writes it (keys in snake case and sorted, slashes unescaped),
/// written directly for the events a run sends for each partition: a night of three years sends
/// two for each of 1,095, on the run's own task, and the encoder's boxing of each key cost a
/// tenth of the night's partitions loop. An event with a check's outcome (a check), seconds that
/// are not a finite number, or counts keyed otherwise than in lower snake case, which the encoder
/// would convert, is left to the encoder. `EventLineTests` compares both ways.
enum EventLine {
    static func json(_ event: RunEvent) -> String {
        guard event.seconds?.isFinite != false, event.check == nil,
              event.counts?.keys.allSatisfy(isLowerSnakeCase) != false else { return UserJSON.line(event) }
        // One string, each member appended in place: a string made for each member and the
        // members joined cost as much again as the appending (perf, three years' night).
        var line = "{"
        line.reserveCapacity(256)
        var first = true
        func member(_ key: StaticString) {
            if !first { line += "," }
            first = false
            line += "\""
            line += key.description
            line += "\":"
        }
        func member(_ key: StaticString, _ text: String?) {
            guard let text else { return }
            member(key)
            appendJSONStringLiteral(text, to: &line)
        }
        if let counts = event.counts {
            member("counts")
            line += "{"
            for (index, count) in counts.sorted(by: { $0.key < $1.key }).enumerated() {
                if index > 0 { line += "," }
                appendJSONStringLiteral(count.key, to: &line)
                line += ":"
                line += String(count.value)
            }
            line += "}"
        }
        member("event", event.event.rawValue)
        member("message", event.message)
        member("partition", event.partition)
        member("path", event.path)
        member("pipeline", event.pipeline)
        member("run_id", event.runId)
        if let seconds = event.seconds {
            member("seconds")
            line += number(seconds)
        }
        member("source", event.source)
        member("stage", event.stage?.rawValue)
        member("status", event.status)
        member("time", event.time)
        line += "}"
        return line
    }

    /// A finite number as the encoder writes it: the shortest digits that read back as the same
    /// value (Swift's `description`), an integral one without its `.0`. Every partition's
    /// `partition_finished` carries its seconds, which sent each of those lines to the encoder: a
    /// tenth of the harvest's time on three years with `--events`, as the nightly runs it.
    private static func number(_ value: Double) -> String {
        let digits = value.description
        return digits.hasSuffix(".0") ? String(digits.dropLast(2)) : digits
    }

    /// A key the encoder's snake case leaves as it is: lower-case ASCII letters, digits and
    /// underscores, none first.
    private static func isLowerSnakeCase(_ key: String) -> Bool {
        guard let first = key.utf8.first, first != UInt8(ascii: "_") else { return false }
        return key.utf8.allSatisfy { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "_") }
    }
}

/// Every event to each of several observers: progress on the terminal and a log file.
public struct FanOutObserver: RunObserver {
    public let observers: [any RunObserver]

    public init(observers: [any RunObserver]) {
        self.observers = observers
    }

    public func observe(_ event: RunEvent) {
        for observer in observers { observer.observe(event) }
    }
}
