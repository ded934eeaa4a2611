/// The CLDR plural categories a counted phrase is written in. In a catalog the bare key holds the
/// `other` form and `<key>_<category>` the others ("qty_bottle": "{count} bottles",
/// "qty_bottle_one": "{count} bottle"); a language lists only the categories its rule uses.
public enum PluralCategory: String, Sendable, CaseIterable {
    case zero, one, two, few, many, other

    /// The catalog key holding `key`'s form for this category.
    public func key(_ key: String) -> String { self == .other ? key : key + "_" + rawValue }
}

/// Which plural category a number takes in a language (CLDR "cardinal" rules), read from the
/// number as it is shown: "1" is `one` in English, "1.5" and "0.5" are `other` (one needs an
/// integer 1 with no visible decimals).
public struct PluralRule: Sendable, Equatable {
    /// The categories this language writes (always ending in `other`).
    public let categories: [PluralCategory]
    private let form: Form

    private enum Form: Sendable, Equatable {
        /// Japanese, Chinese, Korean, …: one form for every number.
        case otherOnly
        /// English, German, Dutch, …: `one` for integer 1 only.
        case oneForIntegerOne
        /// French, Portuguese: `one` for 0 and 1, decimals included (0.5, 1.5).
        case oneForZeroAndOne
    }

    private init(_ form: Form) {
        self.form = form
        categories = form == .otherOnly ? [.other] : [.one, .other]
    }

    /// The rule for a language code ("en", "ja"); English's shape for a language not listed.
    public init(language code: String) {
        let primary = code.split(separator: "-").first.map { String($0).lowercased() } ?? ""
        switch primary {
        case "ja", "zh", "ko", "th", "vi", "id", "ms", "lo", "my", "km": self.init(.otherOnly)
        case "fr", "pt": self.init(.oneForZeroAndOne)
        default: self.init(.oneForIntegerOne)
        }
    }

    /// The category of `number` written as shown ("2", "0.5"); CLDR's operands i (integer part)
    /// and v (count of visible fraction digits) are read from the text.
    public func category(of number: String) -> PluralCategory {
        let parts = number.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let integer = parts.first.map(String.init) ?? ""
        let fractionDigits = parts.count > 1 ? parts[1].count : 0
        switch form {
        case .otherOnly:
            return .other
        case .oneForIntegerOne:
            return integer == "1" && fractionDigits == 0 ? .one : .other
        case .oneForZeroAndOne:
            return integer == "0" || integer == "1" ? .one : .other
        }
    }

    public func category(of count: Int) -> PluralCategory { category(of: String(count)) }
}
