import Foundation
import HTTPServer
import Tagged

/// Decodes the fields of a form (or a query) into a typed struct, so a handler names what it
/// reads once, in the struct, instead of parsing each field by hand.
///
/// A property is the field of its name in snake case, as the templates spell fields: `discardUnfit`
/// reads `discard_unfit` (a name already in snake case reads itself). Values read
/// as the handlers always read them: text trimmed of surrounding white space (`RequestContext.field`),
/// absent text empty; a number absent or not a number is nil (declare it optional); a `Bool` is
/// whether the field is "1"; a typed id reads as its number; `[String]` is every value of a repeated name; `Verbatim` is the text
/// exactly as sent (passwords). A nested struct reads the fields under its name and a dot: `d0`
/// reads `d0.name`, `d0.quantity`, ….
///
/// Declare numbers optional: then nothing a form sends makes decoding fail, a missing or malformed
/// field is a default, and what to say about it stays the handler's (and Inventory's) decision.
/// A number declared required fails decoding when it is missing.
struct FormDecoder {
    func decode<Form: Decodable>(_ type: Form.Type, from fields: Parameters) throws -> Form {
        try Form(from: FieldsDecoder(fields: fields, prefix: ""))
    }
}

/// A value a form sends as one number, a typed id (`Folder.ID`, …): it reads as an `Int64` does.
protocol FormNumber {
    init?(formText: String)
}

extension Tagged: FormNumber where RawValue == Int64 {
    init?(formText: String) {
        guard let number = Int64(formText) else { return nil }
        self.init(rawValue: number)
    }
}

/// A field's text exactly as sent, white space included: a password's spaces are part of it.
struct Verbatim: Decodable, Equatable {
    let text: String

    init(_ text: String) { self.text = text }

    init(from decoder: any Decoder) throws {
        text = try decoder.singleValueContainer().decode(String.self)
    }
}

extension RequestContext {
    /// The request's form fields as `Form` (see `FormDecoder`).
    func form<Form: Decodable>(_ type: Form.Type) throws -> Form {
        try FormDecoder().decode(type, from: request.form)
    }
}

/// One level of a form: the fields whose names start with `prefix`.
private struct FieldsDecoder: Decoder {
    let fields: Parameters
    let prefix: String
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(FieldsContainer<Key>(fields: fields, prefix: prefix, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch([String].self, .init(codingPath: codingPath, debugDescription: "a form holds named fields only"))
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw DecodingError.typeMismatch(String.self, .init(codingPath: codingPath, debugDescription: "a form holds named fields only"))
    }
}

private struct FieldsContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let fields: Parameters
    let prefix: String
    let codingPath: [any CodingKey]

    var allKeys: [Key] {
        fields.pairs.compactMap { pair in
            guard pair.name.hasPrefix(prefix) else { return nil }
            return Key(stringValue: Self.propertyName(String(pair.name.dropFirst(prefix.count).prefix { $0 != "." })))
        }
    }

    private func name(_ key: Key) -> String { prefix + Self.fieldName(key.stringValue) }

    /// `discardUnfit` → `discard_unfit`: an upper-case letter becomes an underscore and the letter.
    static func fieldName(_ property: String) -> String {
        guard property.contains(where: \.isUppercase) else { return property }
        var name = ""
        for character in property {
            if character.isUppercase { name += "_" + character.lowercased() } else { name.append(character) }
        }
        return name
    }

    /// `discard_unfit` → `discardUnfit`, the inverse of `fieldName`.
    static func propertyName(_ field: String) -> String {
        guard field.contains("_") else { return field }
        let words = field.split(separator: "_", omittingEmptySubsequences: false)
        return words.dropFirst().reduce(String(words[0])) { $0 + $1.prefix(1).uppercased() + $1.dropFirst() }
    }

    /// The first value of the field, trimmed as `RequestContext.field` trims it.
    private func text(_ key: Key) -> String? {
        fields[name(key)]?.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func contains(_ key: Key) -> Bool {
        let name = name(key)
        return fields.pairs.contains { $0.name == name || $0.name.hasPrefix(name + ".") }
    }

    func decodeNil(forKey key: Key) throws -> Bool { !contains(key) }

    func decode(_ type: String.Type, forKey key: Key) throws -> String { text(key) ?? "" }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { text(key) == "1" }

    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { text(key) }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { text(key).map { $0 == "1" } }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { text(key).flatMap { Int($0) } }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { text(key).flatMap { Int64($0) } }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { text(key).flatMap { Double($0) } }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        if let number = type as? any FormNumber.Type { return try required(text(key).flatMap { number.init(formText: $0) as? T }, key) }
        if type == [String].self, let values = fields.all(name(key)) as? T { return values }
        if type == Verbatim.self, let value = Verbatim(fields[name(key)] ?? "") as? T { return value }
        return try T(from: FieldsDecoder(fields: fields, prefix: name(key) + ".", codingPath: codingPath + [key]))
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        if let number = type as? any FormNumber.Type { return text(key).flatMap { number.init(formText: $0) as? T } }
        return contains(key) ? try decode(type, forKey: key) : nil
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        KeyedDecodingContainer(FieldsContainer<NestedKey>(fields: fields, prefix: name(key) + ".", codingPath: codingPath + [key]))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch([String].self, .init(codingPath: codingPath + [key], debugDescription: "a form holds named fields only"))
    }

    func superDecoder() throws -> any Decoder { FieldsDecoder(fields: fields, prefix: prefix, codingPath: codingPath) }
    func superDecoder(forKey key: Key) throws -> any Decoder {
        FieldsDecoder(fields: fields, prefix: name(key) + ".", codingPath: codingPath + [key])
    }

    // Required numbers: absent or malformed fails (see the type's comment).
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try required(decodeIfPresent(type, forKey: key), key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try required(decodeIfPresent(type, forKey: key), key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try required(decodeIfPresent(type, forKey: key), key) }

    private func required<T>(_ value: T?, _ key: Key) throws -> T {
        guard let value else {
            throw DecodingError.valueNotFound(T.self, .init(codingPath: codingPath + [key], debugDescription: "no number in \(name(key))"))
        }
        return value
    }
}
