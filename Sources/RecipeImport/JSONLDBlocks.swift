import Foundation

/// The JSON-LD documents of an HTML page: the text of every `<script type="application/ld+json">`.
enum JSONLDBlocks {
    static func texts(in html: String) -> [String] {
        let bytes = Array(html.utf8)
        var found: [String] = []
        var i = 0
        while let open = find(bytes, "<script", from: i) {
            guard let tagEnd = bytes[open...].firstIndex(of: UInt8(ascii: ">")) else { break }
            let attributes = String(decoding: bytes[open..<tagEnd], as: UTF8.self).lowercased()
            let contentStart = tagEnd + 1
            let close = find(bytes, "</script", from: contentStart) ?? bytes.count
            if attributes.contains("application/ld+json") {
                found.append(String(decoding: bytes[contentStart..<close], as: UTF8.self))
            }
            i = close
            if close == bytes.count { break }
        }
        return found
    }

    /// The JSON value of one block, or nil when it is not JSON. Raw line breaks and tabs inside
    /// strings (which many sites leave there) are read as spaces; comment and CDATA wrappers are ignored.
    static func json(_ text: String) -> Any? {
        var text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        for wrapper in [("<!--", "-->"), ("/*<![CDATA[*/", "/*]]>*/"), ("<![CDATA[", "]]>")] {
            if text.hasPrefix(wrapper.0), text.hasSuffix(wrapper.1) {
                text = String(text.dropFirst(wrapper.0.count).dropLast(wrapper.1.count))
            }
        }
        let cleaned = text.utf8.map { $0 < 0x20 ? UInt8(ascii: " ") : $0 }
        guard nestsWithinLimit(cleaned) else { return nil }
        return try? JSONSerialization.jsonObject(with: Data(cleaned), options: [.fragmentsAllowed])
    }

    /// The deepest a block may nest arrays and objects: far deeper than any page's (and than the
    /// `JSONLDBudget` walks look), shallow enough that parsing and freeing it stay small, whatever
    /// the block (a pasted `[[[[…` 400,000 deep is refused here, before it is parsed).
    static let maxNesting = 100

    /// Whether the arrays and objects of `json` nest at most `maxNesting` deep (brackets inside
    /// strings do not count).
    static func nestsWithinLimit(_ json: [UInt8]) -> Bool {
        var depth = 0
        var inString = false
        var escaped = false
        for byte in json {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > maxNesting { return false }
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return true
    }

    /// Where `needle` (lowercase ASCII) starts in `bytes` at or after `start`, ignoring case.
    static func find(_ bytes: [UInt8], _ needle: String, from start: Int) -> Int? {
        let pattern = Array(needle.utf8)
        guard pattern.count <= bytes.count else { return nil }
        var i = start
        while i + pattern.count <= bytes.count {
            var j = 0
            while j < pattern.count, lower(bytes[i + j]) == pattern[j] { j += 1 }
            if j == pattern.count { return i }
            i += 1
        }
        return nil
    }

    private static func lower(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte + 0x20 : byte }
}
