import Testing

@testable import TemplateRuntime

/// Hostile text written by `HTMLWriter.text` into element content and into attribute values
/// quoted either way: no byte of it can close the value or open a tag, and reading the
/// character references back gives the text as typed.
@Suite struct EscapingTableTests {
    static let hostile: [String] = [
        "\"\u{301} formaction=/settings/push/delete x=\"\u{301}", // quote + combining acute
        "'\u{FE0F} onfocus=alert(1) x='\u{FE0F}", // apostrophe + variation selector
        "<\u{301}script>alert(1)</script\u{301}>", // angle brackets + combining marks
        ">\u{20DD}<img src=x>", // enclosing circle after >
        "&amp; &lt; &#34; &", // references typed as text
        "a\u{0}b", // NUL
        "line\u{2028}separator\u{2029}paragraph", // U+2028, U+2029
        "\u{202E}txt.exe\u{202C}", // right-to-left override
        "cr\r\nlf", // CR is kept as typed
        // Invalid UTF-8 from a form becomes U+FFFD when the form is read (String(decoding:)):
        String(decoding: [0x22, 0xFF, 0xCC, 0x81, 0x3C, 0xC0, 0xAF, 0x27], as: UTF8.self),
    ]

    /// The parts of HTML5's character reference decoding the writer uses.
    static func unescape(_ html: String) -> String {
        // By bytes: Swift's String search (and Foundation's on Linux) works by Character, and
        // would not find "&quot;" in "&quot;\u{301}", whose ";" + U+0301 is one Character.
        var bytes = Array(html.utf8)
        for (reference, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&#13;", "\r"), ("&amp;", "&")] {
            let target = Array(reference.utf8)
            var out: [UInt8] = []
            var index = 0
            while index < bytes.count {
                if bytes[index...].starts(with: target) {
                    out += Array(character.utf8)
                    index += target.count
                } else {
                    out.append(bytes[index])
                    index += 1
                }
            }
            bytes = out
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test(arguments: hostile)
    func hostileTextCannotLeaveItsPlace(_ text: String) {
        var writer = HTMLWriter()
        writer.raw("<p title=\"")
        writer.text(text)
        writer.raw("\" data-x='")
        writer.text(text)
        writer.raw("'>")
        writer.text(text)
        writer.raw("</p>")
        let bytes = writer.bytes
        // Markup bytes only where the template put them: two double quotes, two single, one each of < > …
        #expect(bytes.filter { $0 == UInt8(ascii: "\"") }.count == 2)
        #expect(bytes.filter { $0 == UInt8(ascii: "'") }.count == 2)
        #expect(bytes.filter { $0 == UInt8(ascii: "<") }.count == 2)
        #expect(bytes.filter { $0 == UInt8(ascii: ">") }.count == 2)
        #expect(!bytes.contains(0) && !bytes.contains(0x0D))
        // The output is valid UTF-8 and gives the text back (NUL as U+FFFD, what a parser reads).
        let html = String(validating: bytes, as: UTF8.self)
        #expect(html != nil)
        let inner = html.map { String($0.dropFirst("<p title=\"".count).prefix { $0 != "\"" }) }
        #expect(inner.map { Array(Self.unescape($0).utf8) } == Array(String(text.unicodeScalars.map { $0 == "\u{0}" ? "\u{FFFD}" : Character($0) }).utf8))
    }

    @Test func invalidUTF8FromAFormIsReplacedNotPassedOn() {
        let text = String(decoding: [0x61, 0xFF, 0x22, 0xCC, 0x81], as: UTF8.self)
        var writer = HTMLWriter()
        writer.text(text)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == "a\u{FFFD}&quot;\u{301}")
    }

    @Test func numbersAreWrittenWithoutFormatting() {
        var writer = HTMLWriter()
        writer.text(Int64(-9_223_372_036_854_775_807) - 1)
        writer.raw(" ")
        writer.text(0)
        writer.raw(" ")
        writer.text(Int64(1_234_567))
        #expect(String(decoding: writer.bytes, as: UTF8.self) == "-9223372036854775808 0 1234567")
    }
}
