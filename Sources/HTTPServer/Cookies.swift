/// Reading the `Cookie` header and writing `Set-Cookie`.
public enum Cookies {
    /// `a=1; b=2` → ["a": "1", "b": "2"]; the first of a repeated name wins.
    public static func parse(_ header: String?) -> [String: String] {
        guard let header else { return [:] }
        var result: [String: String] = [:]
        for part in header.split(separator: ";") {
            guard let eq = part.firstIndex(of: "=") else { continue }
            let name = part[..<eq].trimmingCharacters(in: " \t")
            var value = part[part.index(after: eq)...].trimmingCharacters(in: " \t")
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                value = String(value.dropFirst().dropLast())
            }
            if !name.isEmpty, result[name] == nil { result[name] = value }
        }
        return result
    }

    /// The first cookie called `name` in a `Cookie` header, read byte by byte: no dictionary, no
    /// string made for the cookies passed over. Trims and unquotes as `parse` does.
    public static func value(named name: String, in header: String?) -> String? {
        guard let header else { return nil }
        let quote = UInt8(ascii: "\"")
        for part in header.utf8.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false) {
            guard let eq = part.firstIndex(of: UInt8(ascii: "=")) else { continue }
            let key = trimmed(part[..<eq])
            guard !key.isEmpty, key.elementsEqual(name.utf8) else { continue }
            var value = trimmed(part[part.index(after: eq)...])
            if value.count >= 2, value.first == quote, value.last == quote {
                value = value.dropFirst().dropLast()
            }
            return String(Substring(value))
        }
        return nil
    }

    private static func trimmed(_ bytes: Substring.UTF8View) -> Substring.UTF8View {
        let blank: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        guard let first = bytes.firstIndex(where: { !blank($0) }), let last = bytes.lastIndex(where: { !blank($0) }) else {
            return bytes[bytes.startIndex..<bytes.startIndex]
        }
        return bytes[first...last]
    }

    public enum SameSite: String, Sendable { case strict = "Strict", lax = "Lax" }

    /// A `Set-Cookie` value. `maxAge` nil makes a browser-session cookie; 0 deletes it.
    public static func setCookie(
        name: String, value: String, maxAge: Int? = nil, path: String = "/",
        httpOnly: Bool = true, secure: Bool = false, sameSite: SameSite = .lax
    ) -> String {
        var parts = ["\(name)=\(value)", "Path=\(path)"]
        if let maxAge { parts.append("Max-Age=\(maxAge)") }
        if httpOnly { parts.append("HttpOnly") }
        if secure { parts.append("Secure") }
        parts.append("SameSite=\(sameSite.rawValue)")
        return parts.joined(separator: "; ")
    }
}

extension Substring {
    func trimmingCharacters(in set: String) -> String {
        var s = self
        while let f = s.first, set.contains(f) { s = s.dropFirst() }
        while let l = s.last, set.contains(l) { s = s.dropLast() }
        return String(s)
    }
}
