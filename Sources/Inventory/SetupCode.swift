import Foundation

/// The first-run code: 12 letters and digits without look-alikes (0/O, 1/I/L), in groups of four.
public enum SetupCode {
    static let alphabet = Array("ABCDEFGHJKMNPQRSTUVWXYZ23456789")

    public static func make() -> String {
        let letters = Crypto.randomBytes(12).map { alphabet[Int($0) % alphabet.count] }
        return stride(from: 0, to: 12, by: 4).map { String(letters[$0..<$0 + 4]) }.joined(separator: "-")
    }

    /// A code as people type it, read the way the server printed it: full-width letters and digits
    /// as plain ones (NFKC), any case, spaces and dashes (any kind, and the long-vowel mark a
    /// Japanese keyboard types for "-") left out.
    static func normalized(_ typed: String) -> String {
        let separators = Set<Character>(" \t\r\n-‐‑‒–—―−ー")
        // Longer than any code with room for separators: only its length matters then.
        return String(typed.prefix(64).precomposedStringWithCompatibilityMapping.uppercased().filter { !separators.contains($0) && !$0.isWhitespace })
    }

    /// Why a typed code cannot be the printed one, without comparing it: empty, a letter the code
    /// never has, or too few or too many characters, else nil.
    static func malformation(of typed: String, expected: String) -> FieldProblem? {
        if typed.isEmpty { return .setupCodeRequired }
        if !typed.allSatisfy(alphabet.contains) { return .setupCodeCharacters }
        if typed.count != expected.count { return .setupCodeLength }
        return nil
    }
}
