import Foundation
import Inventory
import Outbound

/// Turns an outbox message into the request its channel expects and sends it to the channel's
/// address, and nowhere else.
public struct PushDelivery: Sendable {
    let sender: any OutboundSending
    let timeout: TimeInterval

    public init(sender: any OutboundSending = OutboundHTTP(), timeout: TimeInterval = 10) {
        self.sender = sender
        self.timeout = timeout
    }

    public enum Outcome: Sendable, Equatable {
        case sent
        /// What the owner may see, and the details for the operator's log.
        case failed(PushFailure, detail: String)
    }

    /// The request for `message` on `channel`: method, URL, headers and body.
    public static func request(_ message: PushMessage, on channel: PushChannel) -> (url: URL, headers: [(String, String)], body: [UInt8])? {
        guard let url = channel.target else { return nil }
        var headers: [(String, String)] = []
        if let token = channel.accessToken, !token.isEmpty { headers.append(("Authorization", "Bearer " + token)) }
        switch channel.kind {
        case .ntfy:
            headers.append(("Content-Type", "text/plain; charset=utf-8"))
            headers.append(("Title", headerText(message.title)))
            switch message.kind {
            case "reminder":
                headers.append(("Tags", "alarm_clock"))
                headers.append(("Priority", "high"))
            case "digest": headers.append(("Tags", "calendar"))
            case "backup_failed":
                headers.append(("Tags", "warning"))
                headers.append(("Priority", "high"))
            default: headers.append(("Tags", "white_check_mark"))
            }
            return (url, headers, Array(message.body.utf8))
        case .webhook:
            headers.append(("Content-Type", "application/json"))
            let payload = WebhookPayload(title: message.title, message: message.body, items: message.items)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return (url, headers, Array((try? encoder.encode(payload)) ?? Data()))
        }
    }

    struct WebhookPayload: Encodable {
        let title: String
        let message: String
        let items: [PushItem]
    }

    /// Header values are ASCII; other text goes as an RFC 2047 encoded word, which ntfy decodes.
    static func headerText(_ text: String) -> String {
        let flat = text.replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ")
        if flat.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value < 0x7F }) { return flat }
        return "=?UTF-8?B?" + Data(flat.utf8).base64EncodedString() + "?="
    }

    public func deliver(_ message: PushMessage, on channel: PushChannel) async -> Outcome {
        guard let (url, headers, body) = Self.request(message, on: channel) else {
            return .failed(.invalidAddress, detail: "the channel's address is not valid")
        }
        do {
            let response = try await sender.send(method: "POST", url: url, headers: headers, body: body, timeout: timeout, maxResponseBytes: 16 * 1024)
            // Only the status: the body is the endpoint's, and may be a local service's secret.
            return response.isSuccess ? .sent : .failed(.status(response.status), detail: "HTTP \(response.status)")
        } catch {
            return .failed(Self.failure(error), detail: error.description)
        }
    }

    static func failure(_ error: OutboundError) -> PushFailure {
        switch error {
        case .unsupportedURL: return .invalidAddress
        case .refusedAddress: return .refusedAddress
        case .unreachable: return .unknownHost
        case .timedOut: return .timedOut
        case .responseTooLarge: return .answerTooLarge
        case .transport: return .connectionFailed
        }
    }
}

/// The words of push messages, in the household's language (read from the app's catalogs).
public struct ReminderTexts: Sendable {
    let lookup: @Sendable (_ language: String, _ key: String) -> String?

    public init(lookup: @escaping @Sendable (_ language: String, _ key: String) -> String?) { self.lookup = lookup }

    /// English built in: for tests and a missing catalog.
    public static let english = ReminderTexts { _, _ in nil }

    static let fallback: [String: String] = [
        "push_reminder_title": "Reminder: {name}",
        "push_reminders_title": "{count} reminders",
        "push_reminder_line": "{name} ({folder}, due {due})",
        "push_reminders_body": "{count} reminders: {list}",
        "push_list_separator": ", ",
        "push_and_more": "and {count} more",
        "push_digest_title": "Today in Zaiko",
        "push_digest_body": "{expired} expired, {today} due today, {week} this week",
        "push_digest_expired_unused": "{count} expired unused this week: {names}",
        "push_digest_expired_unused_one": "1 expired unused this week: {names}",
        "push_digest_below_minimum": "{count} below minimum: {names}",
        "push_digest_below_minimum_one": "1 below minimum: {names}",
    ]

    func text(_ language: String, _ key: String, _ values: [String: String] = [:]) -> String {
        var text = lookup(language, key) ?? Self.fallback[key] ?? key
        for (name, value) in values { text = text.replacingOccurrences(of: "{\(name)}", with: value) }
        return text
    }

    /// Listed items in one message, at most; the rest are counted.
    static let listed = 20
    /// Products named on a line of the digest, at most; the rest are counted.
    static let digestNames = 5

    /// One message for the reminders of one household that are due together.
    func reminder(_ items: [PushItem], language: String) -> (title: String, body: String) {
        let lines = items.prefix(Self.listed).map { text(language, "push_reminder_line", ["name": $0.name, "folder": $0.folder, "due": $0.due]) }
        if items.count == 1 {
            return (text(language, "push_reminder_title", ["name": items[0].name]), lines[0])
        }
        var list = lines.joined(separator: text(language, "push_list_separator"))
        if items.count > Self.listed {
            list += text(language, "push_list_separator") + text(language, "push_and_more", ["count": "\(items.count - Self.listed)"])
        }
        let count = "\(items.count)"
        return (text(language, "push_reminders_title", ["count": count]), text(language, "push_reminders_body", ["count": count, "list": list]))
    }

    /// The digest: the counts of what is due, then, on a line of its own when there was any, what
    /// expired unused this week, named ("and 2 more" past the first few products).
    func digest(_ contents: ReminderQueue.DigestContents, language: String) -> (title: String, body: String) {
        let counts = contents.counts
        var body = text(language, "push_digest_body", ["expired": "\(counts.expired)", "today": "\(counts.today)", "week": "\(counts.soon)"])
        let wasted = contents.expiredUnused
        if wasted.count > 0 {
            var names = wasted.names.joined(separator: text(language, "push_list_separator"))
            if wasted.products > wasted.names.count {
                names += text(language, "push_list_separator") + text(language, "push_and_more", ["count": "\(wasted.products - wasted.names.count)"])
            }
            // "1 expired unused…": each catalog has the `_one` form, as the app's counted phrases.
            let key = wasted.count == 1 ? "push_digest_expired_unused_one" : "push_digest_expired_unused"
            body += "\n" + text(language, key, ["count": "\(wasted.count)", "names": names])
        }
        // Kept products under their minimum (their refills are on the shopping list already).
        let short = contents.belowMinimum
        if !short.isEmpty {
            var names = short.prefix(Self.digestNames).joined(separator: text(language, "push_list_separator"))
            if short.count > Self.digestNames {
                names += text(language, "push_list_separator") + text(language, "push_and_more", ["count": "\(short.count - Self.digestNames)"])
            }
            let key = short.count == 1 ? "push_digest_below_minimum_one" : "push_digest_below_minimum"
            body += "\n" + text(language, key, ["count": "\(short.count)", "names": names])
        }
        return (text(language, "push_digest_title"), body)
    }
}
