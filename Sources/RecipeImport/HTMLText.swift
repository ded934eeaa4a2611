import Foundation

/// HTML fragments (as recipe sites put them in names and steps) to plain text: tags dropped, line
/// breaks where blocks end, character references decoded.
enum HTMLText {
    /// Tags after which a line ends.
    private static let breaking: Set<String> = [
        "br", "p", "/p", "li", "/li", "div", "/div", "/h1", "/h2", "/h3", "/h4", "/h5", "/h6", "tr", "/tr", "ol", "/ol", "ul", "/ul",
    ]

    /// Plain text of `html`: one line per block, spaces inside a line collapsed, no empty lines.
    static func lines(_ html: String) -> [String] {
        var text = ""
        var rest = Substring(html)
        while let open = rest.firstIndex(of: "<") {
            text += rest[..<open]
            guard let close = rest[open...].firstIndex(of: ">") else {
                rest = rest[open...]
                break
            }
            let name = rest[rest.index(after: open)..<close].prefix { !$0.isWhitespace && $0 != ">" }.lowercased()
            let bare = name.hasSuffix("/") ? String(name.dropLast()) : name
            if breaking.contains(bare) { text += "\n" } else if bare.first?.isLetter == true || bare.hasPrefix("/") { text += " " }
            rest = rest[rest.index(after: close)...]
        }
        text += rest
        return decode(text).components(separatedBy: .newlines)
            .map { $0.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ") }
            .filter { !$0.isEmpty }
    }

    /// One line: blocks joined by a space.
    static func line(_ html: String) -> String { lines(html).joined(separator: " ") }

    private static let named: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " ", "#39": "'", "hellip": "…", "mdash": "—", "ndash": "–",
        "lsquo": "‘", "rsquo": "’", "ldquo": "“", "rdquo": "”", "deg": "°", "frac12": "½", "frac14": "¼", "frac34": "¾", "times": "×",
        "eacute": "é", "egrave": "è", "agrave": "à", "ccedil": "ç", "ntilde": "ñ", "uuml": "ü", "ouml": "ö", "auml": "ä", "copy": "©",
        "reg": "®", "trade": "™", "middot": "·", "bull": "•", "shy": "",
    ]

    /// `&amp;`, `&#12354;`, `&#x3042;` and the common named references.
    static func decode(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var out = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            let after = rest.index(after: amp)
            guard let semicolon = rest[after...].prefix(12).firstIndex(of: ";") else {
                out += "&"
                rest = rest[after...]
                continue
            }
            let name = String(rest[after..<semicolon])
            if let value = reference(name) {
                out += value
                rest = rest[rest.index(after: semicolon)...]
            } else {
                out += "&"
                rest = rest[after...]
            }
        }
        return out + rest
    }

    private static func reference(_ name: String) -> String? {
        if let value = named[name] ?? named[name.lowercased()] { return value }
        guard name.hasPrefix("#") else { return nil }
        let digits = name.dropFirst()
        let code = digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
        return code.flatMap(Unicode.Scalar.init).map { String(Character($0)) }
    }
}
