import Foundation
import Inventory

/// Values formatted once, for the reader's language and the household's time zone.
enum DisplayFormat {
    /// "2026-11-22 14:05" style, in the household's zone.
    static func dateTime(_ instant: Timestamp, timeZone: String, locale: Catalog) -> String {
        var style = Date.FormatStyle(date: .abbreviated, time: .shortened)
        style.locale = Locale(identifier: locale.code)
        style.timeZone = TimeZone(identifier: timeZone) ?? .gmt
        return instant.date.formatted(style)
    }

    /// A short description of a browser from its User-Agent: "Chrome · Android".
    static func device(_ userAgent: String, locale: Catalog) -> String {
        let browsers = [("Edg/", "Edge"), ("Firefox/", "Firefox"), ("Chrome/", "Chrome"), ("Safari/", "Safari"), ("curl/", "curl")]
        let systems = [("Android", "Android"), ("iPhone", "iPhone"), ("iPad", "iPad"), ("Windows", "Windows"), ("Mac OS X", "Mac"), ("Linux", "Linux")]
        let browser = browsers.first { userAgent.contains($0.0) }?.1
        let system = systems.first { userAgent.contains($0.0) }?.1
        let parts = [browser, system].compactMap { $0 }
        return parts.isEmpty ? locale[.deviceUnknown] : parts.joined(separator: " · ")
    }
}
