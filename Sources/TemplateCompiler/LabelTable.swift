import Foundation
import TemplateRuntime

/// The labels compiled templates read (`{{t.key}}`), from `Templates/locales/*.json`: one
/// generated struct with a stored, already escaped text per key, and one value of it per
/// language, chosen once per request. A key missing from any language fails the generator.
public struct LabelTable {
    /// Language code → key → text.
    public let languages: [(code: String, texts: [String: String])]

    public init(locales: URL) throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: locales.path).filter { $0.hasSuffix(".json") }.sorted()
        languages = try files.map { file in
            let data = try Data(contentsOf: locales.appendingPathComponent(file))
            guard let texts = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                throw TemplateError(Location(file: locales.appendingPathComponent(file).path, line: 1), "not a JSON object of texts")
            }
            return (String(file.dropLast(5)), texts.compactMapValues { $0 as? String })
        }
    }

    public init(languages: [(code: String, texts: [String: String])]) { self.languages = languages }

    public func swift(for used: [(key: String, location: Location)]) throws -> String {
        var keys: [String] = []
        for (key, location) in used where !keys.contains(key) {
            for language in languages where language.texts[key] == nil {
                throw TemplateError(location, "{{t.\(key)}}: no \"\(key)\" in locales/\(language.code).json")
            }
            guard key.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) else {
                throw TemplateError(location, "{{t.\(key)}}: a label key is letters, digits and _")
            }
            keys.append(key)
        }
        // A class: a page reads `t` from its scope for every label, and a struct of hundreds of
        // texts would be copied (each text retained and released) at each read.
        var code = "/// The labels of the compiled templates in one language (see LabelTable).\nfinal class TemplateLabels: Sendable {\n"
        code += "    let code: String\n"
        for key in keys { code += "    let \(SwiftEmitter.identifier(key)): EscapedText\n" }
        code += "\n    init(\n        code: String"
        for key in keys { code += ",\n        \(SwiftEmitter.identifier(key)): EscapedText" }
        code += "\n    ) {\n        self.code = code\n"
        for key in keys { code += "        self.\(SwiftEmitter.identifier(key)) = \(SwiftEmitter.identifier(key))\n" }
        code += "    }\n"
        code += "\n    static let all: [TemplateLabels] = [\n"
        for language in languages {
            code += "        TemplateLabels(\n            code: \(SwiftEmitter.literal(language.code))"
            for key in keys {
                code += ",\n            \(key): EscapedText(generated: \(SwiftEmitter.literal(HTMLEscaping.escape(language.texts[key] ?? ""))))"
            }
            code += "),\n"
        }
        code += "    ]\n}\n"
        return code
    }
}
