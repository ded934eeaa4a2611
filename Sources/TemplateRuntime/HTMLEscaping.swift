/// Escaping per byte of UTF-8, so no combining mark or variation selector can hide a quote
/// or an angle bracket from it (Swift's `Character` would: `"` + U+0301 is one Character).
/// Safe in element content and in attribute values quoted with `"` or `'`.
public enum HTMLEscaping {
    @inlinable public static func append(_ text: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
        var start = 0
        for index in 0..<text.count {
            let replacement: StaticString
            switch text[index] {
            case 0x26: replacement = "&amp;"
            case 0x3C: replacement = "&lt;"
            case 0x3E: replacement = "&gt;"
            case 0x22: replacement = "&quot;"
            case 0x27: replacement = "&#39;"
            // A parser would turn CR (and CR LF) into LF: keep the character as typed.
            case 0x0D: replacement = "&#13;"
            // A parser drops or replaces NUL: write what a browser would read, U+FFFD.
            case 0x00: replacement = "\u{FFFD}"
            default: continue
            }
            if index > start { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[start..<index])) }
            bytes.append(contentsOf: UnsafeRawBufferPointer(start: replacement.utf8Start, count: replacement.utf8CodeUnitCount))
            start = index + 1
        }
        if start < text.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[start...])) }
    }

    /// `text` escaped, as a String (for the generator and the tests).
    public static func escape(_ text: String) -> String {
        var text = text
        var bytes = [UInt8]()
        text.withUTF8 { append($0, to: &bytes) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
