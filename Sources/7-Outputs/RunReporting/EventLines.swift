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
        output.write(UserJSON.line(event) + "\n")
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
