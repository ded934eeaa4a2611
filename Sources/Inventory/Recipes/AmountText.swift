import Foundation

/// An ingredient amount as people type it: "200", "0.5", "1,5", "1/2", "1 1/2", "½", "1½",
/// full-width digits ("２００"). Nil when it is not a number of that shape.
enum AmountText {
    static func value(_ typed: String) -> Double? {
        // A vulgar fraction becomes " 1⁄2" before NFKC, so "1½" reads 1 1/2, not 11/2.
        var spaced = ""
        for character in typed {
            let folded = String(character).precomposedStringWithCompatibilityMapping
            spaced += folded.contains("\u{2044}") ? " " + folded : String(character)
        }
        let text = spaced.precomposedStringWithCompatibilityMapping
            .replacingOccurrences(of: "\u{2044}", with: "/").replacingOccurrences(of: ",", with: ".")
        let parts = text.split(whereSeparator: \.isWhitespace).map(String.init)
        switch parts.count {
        case 1:
            return parts[0].contains("/") ? fraction(parts[0]) : decimal(parts[0])
        case 2:
            // A whole number and a fraction: "1 1/2".
            guard !parts[0].contains("."), let whole = decimal(parts[0]), let part = fraction(parts[1]), part < 1 else { return nil }
            return whole + part
        default:
            return nil
        }
    }

    /// Plain digits with an optional decimal point ("Double" alone would take "inf", "1e3", "0x10").
    private static func decimal(_ text: String) -> Double? {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), text.filter({ $0 == "." }).count <= 1,
            text != "."
        else { return nil }
        return Double(text)
    }

    private static func fraction(_ text: String) -> Double? {
        let sides = text.split(separator: "/", omittingEmptySubsequences: false)
        guard sides.count == 2, sides.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let top = Int(sides[0]), let bottom = Int(sides[1]), bottom > 0
        else { return nil }
        return Double(top) / Double(bottom)
    }
}
