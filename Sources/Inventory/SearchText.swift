import Foundation

/// Text folded the same way for storing and for searching.
public enum SearchText {
    /// NFKC (full-width letters and digits become ASCII, half-width katakana full-width), then lower case.
    /// Composed once more after NFKC: on Linux, Foundation's compatibility mapping leaves a half-width
    /// voiced mark apart (ｷﾞ → キ + U+3099), which Swift calls equal to ギ but SQLite's byte comparison does not.
    public static func fold(_ parts: String...) -> String {
        parts.joined(separator: "\n").precomposedStringWithCompatibilityMapping.precomposedStringWithCanonicalMapping.lowercased()
    }

    /// A LIKE pattern matching `needle` anywhere, with LIKE's wildcards escaped (ESCAPE '\').
    public static func likePattern(_ needle: String) -> String {
        let escaped = fold(needle).replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_")
        return "%" + escaped + "%"
    }
}
