import Foundation

/// Reading the few response headers the fetcher acts on.
enum HeaderValues {
    /// The `charset` parameter of a Content-Type, unquoted and otherwise as the server wrote it:
    /// a wrong declaration is passed on faithfully and the HTML layer decides whom to believe.
    static func charset(fromContentType contentType: String?) -> String? {
        guard let contentType else { return nil }
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2,
                  pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "charset"
            else { continue }
            let value = pair[1].trimmingCharacters(in: .whitespaces)
                .trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
            return value.isEmpty ? nil : value
        }
        return nil
    }

    /// Retry-After as delay-seconds or as an HTTP-date (RFC 9110 §10.2.3); a date in the past
    /// means "now", anything unreadable is ignored so the usual back-off applies.
    static func retryAfter(_ value: String?, now: Date) -> Duration? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Int(value) {
            return seconds >= 0 ? .seconds(seconds) : nil
        }
        guard let date = httpDate(value) else { return nil }
        let milliseconds = Int64((date.timeIntervalSince(now) * 1000).rounded(.up))
        return .milliseconds(max(0, milliseconds))
    }

    /// IMF-fixdate, the only HTTP-date form senders may generate (`Sun, 06 Nov 1994 08:49:37 GMT`).
    static func httpDate(_ value: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.date(from: value)
    }
}
