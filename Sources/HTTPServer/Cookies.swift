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
