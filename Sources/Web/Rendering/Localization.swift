import Foundation
import Inventory

/// One language's texts, embedded at build time from `Templates/locales/<code>.json` (a flat key
/// → text object). Swift reads them by typed key (`t[.itemSaved]`, generated as `TextKey`, so a
/// key no catalog has does not build); templates read `{{t.key}}` from the same files, compiled
/// into `TemplateLabels`.
public struct Catalog: Sendable {
    public let code: String
    let texts: [String: String]
    /// How this language declines counted phrases (`count`, `quantity`).
    public let pluralRule: PluralRule
    /// Each unit's words around its number (keys `qty_<unit>`), split once: every list row asks.
    private let unitWords: [String: UnitWords]

    public init(code: String, texts: [String: String]) {
        self.code = code
        self.texts = texts
        pluralRule = PluralRule(language: code)
        unitWords = UnitWords.all(in: texts)
    }

    /// The text for `key`.
    subscript(key: TextKey) -> String { self[named: key.name] }

    /// The text of `family`'s key for `code` (`t[.kind, item.kind]`); the key itself when the code
    /// has none, so a gap is visible rather than blank.
    subscript(family: TextFamily, code: some CustomStringConvertible) -> String { self[named: family.name(code)] }

    /// The text of `family`'s key for a typed code (`t[.kind, item.kind]`), by its stored code.
    subscript<Code: RawRepresentable>(family: TextFamily, code: Code) -> String where Code.RawValue == String { self[family, code.rawValue] }

    /// The text for a key spelled at run time (a field's label, `field_` + its form name); the key
    /// itself when missing. Code that knows its key uses `TextKey`.
    subscript(named name: String) -> String { texts[name] ?? name }

    /// The text for a key named by another module (the reminder and backup messages), nil when
    /// this language has none (so a caller can fall back).
    public func text(named name: String) -> String? { texts[name] }

    /// `key`'s text with `{name}` placeholders filled in.
    func format(_ key: TextKey, _ values: [String: String]) -> String {
        Self.fill(self[key], values)
    }

    /// The text for a key that arrives as data with `{name}` placeholders filled in.
    func format(named name: String, _ values: [String: String]) -> String {
        Self.fill(self[named: name], values)
    }

    /// `text` with each `{name}` of `values` replaced, in one pass: a value is never read for
    /// placeholders itself (a name with "{count}" in it stays as typed).
    static func fill(_ text: String, _ values: [String: String]) -> String {
        guard !values.isEmpty, text.utf8.contains(UInt8(ascii: "{")) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 32)
        var rest = text[...]
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            result += rest[..<open]
            if let value = values[String(rest[rest.index(after: open)..<close])] {
                result += value
                rest = rest[rest.index(after: close)...]
            } else {
                // Not a placeholder: the brace is text, and one may start after it.
                result += "{"
                rest = rest[rest.index(after: open)...]
            }
        }
        result += rest
        return result
    }

    /// `key` with `{count}` filled in, in the form the language's plural rule chooses for it
    /// (`key_one` for "1 item" in English; the bare key, `other`, for every count in Japanese).
    func count(_ key: TextKey, _ count: Int, _ values: [String: String] = [:]) -> String {
        plural(named: key.name, number: String(count), values)
    }

    /// `key` declined for `number` as it is shown ("2", "0.5"), with `{count}` set to it. A form
    /// for that exact number (`key_=1`: "Due tomorrow", 「明日まで」) comes first, as in ICU messages;
    /// then the language's plural category (`key_one`, …); then the bare key (`other`).
    func plural(_ key: TextKey, number: String, _ values: [String: String] = [:]) -> String {
        plural(named: key.name, number: number, values)
    }

    /// `family`'s counted phrase for `code` (`recipes_qty_` + a cooking unit), declined for `number`.
    func plural(_ family: TextFamily, _ code: String, number: String, _ values: [String: String] = [:]) -> String {
        plural(named: family.name(code), number: number, values)
    }

    /// The counted phrase of a key that arrives as data, declined for `number`.
    func plural(named key: String, number: String, _ values: [String: String] = [:]) -> String {
        let exact = key + "_=" + number
        let category = pluralRule.category(of: number).key(key)
        let chosen = texts[exact] != nil ? exact : texts[category] != nil ? category : key
        return Self.fill(self[named: chosen], values.merging(["count": number]) { first, _ in first })
    }

    /// A quantity with its unit, declined and counted the way the language says it:
    /// "1 bottle", "2 bottles", "0.5 kg"; 「2本」「1パック」「500g」. Keys `qty_<unit>` (+ `_one`, …).
    public func quantity(_ value: Double, unit: String) -> String {
        let parts = quantityParts(value, unit: unit)
        return parts.before + parts.number + parts.after
    }

    /// `quantity` of an item unit.
    public func quantity(_ value: Double, unit: ItemUnit) -> String { quantity(value, unit: unit.rawValue) }

    /// `quantity` in three pieces, so a row can set the number apart from its unit words.
    public func quantityParts(_ value: Double, unit: String) -> (before: String, number: String, after: String) {
        let number = Quantity.text(value)
        guard let words = unitWords[unit] else { return ("", number, " " + self[.unit, unit]) }
        let chosen = words.around(number, rule: pluralRule)
        return (chosen.before, number, chosen.after)
    }

    public var keys: Set<String> { Set(texts.keys) }

    /// The language's name in its own words (key `language_name`), the code when a catalog has none.
    public var languageName: String { texts[TextKey.languageName.name] ?? code }

    /// The starter folders' names in this language, by starter key (missing ones are left out;
    /// `TextFamilyTests` checks that every language has every starter).
    public var starterFolderNames: [String: String] {
        var names: [String: String] = [:]
        for starter in Accounts.starterFolders { names[starter.key] = texts[starter.key] }
        return names
    }
}

/// Every language Zaiko speaks: adding a language is adding a file. English is the fallback.
public struct Localizations: Sendable {
    public let catalogs: [String: Catalog]
    public let fallback: Catalog

    /// The catalogs built into the binary (`Templates/locales`, embedded by the build).
    public static let embedded = Localizations(CatalogTexts.languages.map { Catalog(code: $0.code, texts: $0.texts) })

    /// These catalogs; English, which every build has, is the fallback.
    public init(_ catalogs: [Catalog]) {
        self.catalogs = Dictionary(catalogs.map { ($0.code, $0) }) { first, _ in first }
        fallback = self.catalogs["en"] ?? catalogs[0]
        languages = self.catalogs.values.sorted { $0.code < $1.code }
    }

    /// Every catalog, by code: the languages a member can choose.
    public let languages: [Catalog]

    /// The best catalog for an `Accept-Language` header ("ja-JP,ja;q=0.9,en;q=0.8").
    public func negotiate(_ acceptLanguage: String?) -> Catalog {
        guard let acceptLanguage else { return fallback }
        var ranked: [(code: String, quality: Double, order: Int)] = []
        for (order, part) in acceptLanguage.split(separator: ",").enumerated() {
            let pieces = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let tag = pieces.first, !tag.isEmpty else { continue }
            var quality = 1.0
            for parameter in pieces.dropFirst() where parameter.hasPrefix("q=") {
                quality = Double(parameter.dropFirst(2)) ?? 0
            }
            let primary = tag.split(separator: "-").first.map { String($0).lowercased() } ?? ""
            if quality > 0 { ranked.append((primary, quality, order)) }
        }
        ranked.sort { $0.quality != $1.quality ? $0.quality > $1.quality : $0.order < $1.order }
        for candidate in ranked {
            if let catalog = catalogs[candidate.code] { return catalog }
        }
        return fallback
    }
}

/// One unit's phrase in each form it has (`qty_bottle`, `qty_bottle_one`, `qty_bottle_=1`), split
/// around `{count}`. Chosen as `Catalog.plural` chooses: the exact number, the plural category, the
/// bare key.
private struct UnitWords: Sendable {
    typealias Around = (before: String, after: String)
    let other: Around
    let categories: [PluralCategory: Around]
    let exact: [String: Around]

    func around(_ number: String, rule: PluralRule) -> Around {
        if !exact.isEmpty, let form = exact[number] { return form }
        let category = rule.category(of: number)
        return category == .other ? other : categories[category] ?? other
    }

    /// Every unit of `texts`: a `qty_` key that is not itself a form of another (`_one`, `_=1`).
    static func all(in texts: [String: String]) -> [String: UnitWords] {
        let formSuffixes = PluralCategory.allCases.filter { $0 != .other }.map { "_" + $0.rawValue }
        var units: [String: UnitWords] = [:]
        let prefix = TextFamily.quantity.prefix
        for (key, text) in texts where key.hasPrefix(prefix) && !key.contains("_=") && !formSuffixes.contains(where: key.hasSuffix) {
            var categories: [PluralCategory: Around] = [:]
            for category in PluralCategory.allCases where category != .other {
                if let form = texts[category.key(key)] { categories[category] = split(form) }
            }
            let exactPrefix = key + "_="
            var exact: [String: Around] = [:]
            for (other, form) in texts where other.hasPrefix(exactPrefix) { exact[String(other.dropFirst(exactPrefix.count))] = split(form) }
            units[String(key.dropFirst(prefix.count))] = UnitWords(other: split(text), categories: categories, exact: exact)
        }
        return units
    }

    /// The phrase on either side of `{count}`; all of it after the number when it has none.
    private static func split(_ text: String) -> Around {
        let marked = Catalog.fill(text, ["count": "\u{0}"])
        guard let mark = marked.firstIndex(of: "\u{0}") else { return ("", marked) }
        return (String(marked[..<mark]), String(marked[marked.index(after: mark)...]))
    }
}
