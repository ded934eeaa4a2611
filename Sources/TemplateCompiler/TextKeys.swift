import Foundation

/// The catalogs of `Templates/locales` for Swift code: one generated `TextKey` member per key
/// (`item_saved` is `.itemSaved`), so a key no catalog has fails the build, and every language's
/// texts embedded in the binary (`CatalogTexts`), so nothing reads a locale file at run time.
///
/// A counted phrase is one key, the bare one (CLDR's `other`): its forms for a plural category
/// (`key_one`, …) or an exact number (`key_=1`) are texts of the catalog but not members, found
/// by `Catalog.count` and `Catalog.plural`. A key that is itself counted (`notice_copied_many`,
/// with its own `_one`) is a key, not a form. Every language must have every key.
public struct TextKeys {
    public let languages: [(code: String, texts: [String: String])]
    /// Where each language's catalog is, for errors.
    let files: URL

    public init(languages: [(code: String, texts: [String: String])], files: URL) {
        self.languages = languages
        self.files = files
    }

    /// The plural categories a form may name, other than the bare key's `other`.
    static let categories = ["zero", "one", "two", "few", "many"]

    /// Whether `key` is a form of another key of `keys` (`x_one`, `x_=1` beside `x`) rather than
    /// a key of its own.
    static func isForm(_ key: String, of keys: Set<String>) -> Bool {
        guard let base = formBase(key), keys.contains(base) else { return false }
        // A key with forms of its own is counted itself (`notice_copied_many` has `_one`).
        return !keys.contains { $0.hasPrefix(key + "_") && formBase($0) == key }
    }

    /// `x` for `x_one` or `x_=1`; nil for a key that does not end like a form.
    static func formBase(_ key: String) -> String? {
        if let range = key.range(of: "_=", options: .backwards), !key[range.upperBound...].isEmpty,
            key[range.upperBound...].allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") })
        {
            return String(key[..<range.lowerBound])
        }
        for category in categories where key.hasSuffix("_" + category) { return String(key.dropLast(category.count + 1)) }
        return nil
    }

    /// `item_saved` → `itemSaved`; `illustration_soy-sauce` → `illustrationSoySauce`.
    static func memberName(_ key: String) -> String {
        let words = key.split(whereSeparator: { $0 == "_" || $0 == "-" }).map(String.init)
        guard let first = words.first else { return key }
        return SwiftEmitter.identifier(first + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined())
    }

    public func swift() throws -> String {
        let all = Set(languages.flatMap(\.texts.keys))
        for language in languages {
            if let missing = all.subtracting(language.texts.keys).sorted().first {
                throw TemplateError(
                    Location(file: files.appendingPathComponent("\(language.code).json").path, line: 1),
                    "no \"\(missing)\" in locales/\(language.code).json (another catalog has it)")
            }
        }
        let keys = all.filter { !Self.isForm($0, of: all) }.sorted()
        var members: [String: String] = [:]
        for key in keys {
            let name = Self.memberName(key)
            guard let first = name.first, first.isLetter || first == "_",
                key.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") })
            else {
                throw TemplateError(Location(file: files.path, line: 1), "\"\(key)\": a text key is letters, digits, _ and -, starting with a letter")
            }
            if let other = members[name] { throw TemplateError(Location(file: files.path, line: 1), "\"\(key)\" and \"\(other)\" are both TextKey.\(name)") }
            members[name] = key
        }
        let english = languages.first { $0.code == "en" } ?? languages.first
        var code = """
            /// A text of Templates/locales for Swift code (`t[.itemSaved]`, `t.count(.itemCount, n)`):
            /// generated from the catalogs, so a key no catalog has does not build. Counted phrases are
            /// their bare key; `Catalog` finds the forms (`_one`, `_=1`).
            struct TextKey: Hashable, Sendable {
                /// The key as the catalogs spell it (`item_saved`).
                let name: String

                fileprivate init(_ name: String) { self.name = name }

                /// The key spelled `name`, nil when the catalogs have none: for a key made at run time
                /// from a code (`"kind_" + kind`, see `TextFamily`).
                static func named(_ name: String) -> TextKey? { names.contains(name) ? TextKey(name) : nil }

                /// Every key's name, the forms of counted phrases left out.
                static let names: Set<String> = [\(keys.map(SwiftEmitter.literal).joined(separator: ", "))]

            """
        for key in keys {
            if let text = english?.texts[key] { code += "    /// \(SwiftEmitter.literal(text).dropFirst().dropLast())\n" }
            code += "    static var \(Self.memberName(key)): TextKey { TextKey(\(SwiftEmitter.literal(key))) }\n"
        }
        code += "}\n\n/// Every catalog's texts by key, forms included, embedded in the binary.\nenum CatalogTexts {\n"
        code += "    static let languages: [(code: String, texts: [String: String])] = [\n"
        for language in languages {
            let entries = language.texts.sorted { $0.key < $1.key }.map { "\(SwiftEmitter.literal($0.key)): \(SwiftEmitter.literal($0.value))" }
            code +=
                "        (\(SwiftEmitter.literal(language.code)), \(entries.isEmpty ? "[:]" : "[\n            " + entries.joined(separator: ",\n            ") + ",\n        ]")),\n"
        }
        code += "    ]\n}\n"
        return code
    }
}
