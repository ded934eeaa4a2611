import Foundation

/// The client a reverse proxy names in its request headers. Only the last entry counts: it is the
/// one the trusted proxy itself added (earlier ones come from the client and may be made up).
public enum ForwardedFor {
    /// The address in the last `X-Forwarded-For` entry, else in the last `for=` of `Forwarded`
    /// (RFC 7239, quotes, brackets and port removed); nil when neither holds an IP address.
    public static func client(_ headers: Headers) -> String? {
        if let list = headers["x-forwarded-for"] {
            return address(list.split(separator: ",").last.map(String.init) ?? "")
        }
        guard let forwarded = headers["forwarded"], let last = forwarded.split(separator: ",").last else { return nil }
        for pair in last.split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "for" else { continue }
            return address(String(parts[1]))
        }
        return nil
    }

    /// `"[2001:db8::1]:4711"` → `2001:db8::1`, `192.0.2.60:80` → `192.0.2.60`; nil for anything
    /// that is not an IP address (`unknown`, an obfuscated name).
    public static func address(_ text: String) -> String? {
        var value = text.trimmingCharacters(in: .whitespaces)
        if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
        if value.hasPrefix("["), let end = value.firstIndex(of: "]") {
            value = String(value[value.index(after: value.startIndex)..<end])
        } else if value.filter({ $0 == ":" }).count == 1 {
            value = String(value.split(separator: ":")[0])
        }
        return ClientKey(value) == nil ? nil : value
    }
}
