import Foundation
import Testing

@testable import TemplateCompiler

/// The Mustache spec cases (Spec/) through the generated Swift, the path every page takes: each
/// case's data becomes typed view models (a struct per object, `[T]` per list, `String`, `Int`,
/// `Double`, `Bool`), its template is compiled by `SwiftEmitter` like a page, and all cases are
/// built into one program with the runtime's sources and run once; each case's output must be the
/// spec's. Cases that cannot apply to typed templates stand on `notApplicable` with their reason,
/// and the one that renders otherwise on `differs`.
@Suite struct GeneratedSpecTests {
    /// Spec cases the generated code does not run, each with why. Each follows from typed view
    /// models, from the rule that user text is always escaped, or from what a compiled page may not
    /// do (README, "How it is built"). The cases `SpecTests.unsupported` lists (whitespace rules of
    /// inheritance the shared parser does not follow) are left out here as there.
    static let notApplicable: [String: String] = [
        "comments: Variable Name Collision": notASwiftName,
        "inheritance: Data does not override block": notASwiftName,
        "inheritance: Data does not override block default": notASwiftName,
        "inheritance: Negative Sections": missingName,
        "inheritance: Recursion": recursion,
        "inheritance: Triple Mustache": unescaped,
        "interpolation: Ampersand": unescaped,
        "interpolation: Ampersand - Standalone": unescaped,
        "interpolation: Ampersand - Surrounding Whitespace": unescaped,
        "interpolation: Ampersand Context Miss Interpolation": missingName,
        "interpolation: Ampersand Decimal Interpolation": unescaped,
        "interpolation: Ampersand Integer Interpolation": unescaped,
        "interpolation: Ampersand Null Interpolation": unescaped,
        "interpolation: Ampersand With Padding": unescaped,
        "interpolation: Basic Context Miss Interpolation": missingName,
        "interpolation: Dotted Names - Ampersand Interpolation": unescaped,
        "interpolation: Dotted Names - Broken Chain Resolution": missingName,
        "interpolation: Dotted Names - Broken Chains": missingName,
        "interpolation: Dotted Names - No Masking": dottedKey,
        "interpolation: Dotted Names - Triple Mustache Interpolation": unescaped,
        "interpolation: Dotted Names are never single keys": dottedKey,
        "interpolation: Implicit Iterators - Ampersand": bareValue,
        "interpolation: Implicit Iterators - Basic Integer Interpolation": bareValue,
        "interpolation: Implicit Iterators - Basic Interpolation": bareValue,
        "interpolation: Implicit Iterators - HTML Escaping": bareValue,
        "interpolation: Implicit Iterators - Triple Mustache": bareValue,
        "interpolation: Triple Mustache": unescaped,
        "interpolation: Triple Mustache - Standalone": unescaped,
        "interpolation: Triple Mustache - Surrounding Whitespace": unescaped,
        "interpolation: Triple Mustache Context Miss Interpolation": missingName,
        "interpolation: Triple Mustache Decimal Interpolation": unescaped,
        "interpolation: Triple Mustache Integer Interpolation": unescaped,
        "interpolation: Triple Mustache Null Interpolation": unescaped,
        "interpolation: Triple Mustache With Padding": unescaped,
        "inverted: Context": missingName,
        "inverted: Context Misses": missingName,
        "inverted: Dotted Names - Broken Chains": missingName,
        "inverted: List": missingName,
        "partials: Failed Lookup": missingPartial,
        "partials: Recursion": recursion,
        "partials: Standalone Indentation": unescaped,
        "sections: Context Misses": missingName,
        "sections: Dotted Names - Broken Chains": missingName,
        "sections: Implicit Iterator - Ampersand": unescaped,
        "sections: Implicit Iterator - Array": mixedList,
        "sections: Implicit Iterator - Root-level": bareValue,
        "sections: Implicit Iterator - Triple mustache": unescaped,
    ]

    /// Spec cases the generated code runs and renders otherwise than the spec, each with why (the
    /// test fails when one passes, to take it off).
    static let differs: [String: String] = [
        // {{#a}}{{b.c}}{{/a}} over {"a": {"b": {}}, "b": {"c": "ERROR"}}: the spec stops at a's b.
        "interpolation: Dotted Names - Context Precedence":
            "the Swift compiler resolves b.c in the innermost context whose b has a c: a's b, which has none, is passed over"
    ]

    // The reasons.
    /// `{{{name}}}` and `{{&name}}` write only `Markup` (markup made by Swift): user text, and the
    /// spec's strings and numbers, are always escaped.
    static let unescaped = "unescaped output takes only Markup: a String or a number is always escaped"
    /// A typed template names only what its view model has: the Swift compiler refuses the page.
    static let missingName = "a name the view model lacks fails the build at the tag (a context miss cannot render as empty)"
    /// A compiled template's view model is a type with members, not a bare string or number.
    static let bareValue = "the data is a bare value, not a view model with members"
    /// "a.b" as one key: a Swift member name has no dot (and dotted names are never single keys).
    static let dottedKey = "a key with a dot in it is no Swift member name"
    static let notASwiftName = "a data key that is no Swift member name (a keyword, or punctuation)"
    /// The generator expands partials and parents into the page: recursion would never end.
    static let recursion = "a compiled page cannot recurse: the generator refuses a partial or parent that includes itself"
    /// A missing partial fails the generator, as a missing name fails the build.
    static let missingPartial = "a partial that does not exist fails the generator"
    /// A Swift array holds one type.
    static let mixedList = "a list of values of different types has no Swift element type"

    /// One case, its view models and the call that renders it.
    struct CompiledCase {
        let key: String
        let index: Int
        let expected: String
        let declarations: [String]
        let literal: String
    }

    /// The Swift type and literal of a JSON value; objects become structs named from their path.
    struct Models {
        var declarations: [String: String] = [:]
        var problem: String?

        static let keywords: Set<String> = [
            "in", "for", "if", "else", "while", "do", "return", "class", "struct", "enum", "let", "var", "func", "true", "false", "nil",
            "self", "Self", "init", "default", "case", "switch", "is", "as", "try", "throw", "import", "protocol", "extension", "repeat",
            "break", "continue", "where", "static", "public", "private", "internal", "operator", "subscript", "deinit", "type", "Type",
        ]

        mutating func swift(_ value: Interpreter.Value, type name: String) -> (type: String, literal: String) {
            switch value {
            case .null: return ("String?", "nil")
            case .bool(let bool): return ("Bool", bool ? "true" : "false")
            case .number(let number):
                if let int = Int(exactly: number) { return ("Int", "\(int)") }
                return ("Double", "\(number)")
            case .string(let text): return ("String", Self.literal(text))
            case .list(let elements):
                guard !elements.isEmpty else { return ("[String]", "[]") }
                let typed = elements.map { swift($0, type: name + "E") }
                if Set(typed.map(\.type)).count > 1 { problem = problem ?? "a list's elements are of different types" }
                return ("[\(typed[0].type)]", "[" + typed.map(\.literal).joined(separator: ", ") + "]")
            case .object(let members):
                let keys = members.keys.sorted()
                for key in keys
                where key.isEmpty || Self.keywords.contains(key) || !key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" })
                    || key.first!.isNumber
                {
                    problem = problem ?? "the key \"\(key)\" is no Swift name"
                }
                let fields = keys.map { (key: $0, swift($0 == "" ? .null : members[$0]!, type: name + "_" + $0)) }
                let declaration = "struct \(name) { " + fields.map { "let \($0.key): \($0.1.type)" }.joined(separator: "; ") + " }"
                if let earlier = declarations[name], earlier != declaration { problem = problem ?? "a list's objects have different members" }
                declarations[name] = declaration
                return (name, "\(name)(" + fields.map { "\($0.key): \($0.1.literal)" }.joined(separator: ", ") + ")")
            }
        }

        static func literal(_ text: String) -> String {
            "\""
                + text.unicodeScalars.map { scalar -> String in
                    switch scalar {
                    case "\\": return "\\\\"
                    case "\"": return "\\\""
                    case "\n": return "\\n"
                    case "\r": return "\\r"
                    case "\t": return "\\t"
                    default: return scalar.isASCII && scalar.value < 0x20 ? "\\u{\(String(scalar.value, radix: 16))}" : String(scalar)
                    }
                }.joined() + "\""
        }
    }

    /// The applicable cases compiled, their generated code, the cases refused that are on no list,
    /// and the names of all cases.
    static func cases() throws -> (compiled: [CompiledCase], code: [String], refused: [String: String], all: Set<String>) {
        var compiled: [CompiledCase] = []
        var code: [String] = []
        var refused: [String: String] = [:]
        var all: Set<String> = []
        for part in ["interpolation", "sections", "inverted", "partials", "comments", "inheritance"] {
            let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Spec/\(part).json")
            let spec = try JSONDecoder().decode(SpecTests.SpecFile.self, from: Data(contentsOf: url))
            for test in spec.tests {
                let key = "\(part): \(test.name)"
                all.insert(key)
                guard notApplicable[key] == nil, SpecTests.unsupported[key] == nil else { continue }
                let index = compiled.count
                var models = Models()
                let root = models.swift(test.data, type: "Case\(index)")
                if case .object = test.data {} else { models.problem = models.problem ?? "the data is not an object" }
                if let problem = models.problem {
                    refused[key] = problem
                    continue
                }
                do {
                    let partials = test.partials ?? [:]
                    let expander = Expander { name in partials[name].map { ($0, "spec/case\(index)-\(name).mustache") } }
                    let nodes = try expander.expandAll(try Parser.parse(test.template, file: "spec/case\(index).mustache"), including: ["case"])
                    let emitted = try SwiftEmitter.emit(nodes, signature: .init(model: "Case\(index)", outer: nil), file: "spec/case\(index).mustache")
                    // A template without a tag gets a closing #sourceLocation() without an opening one,
                    // which swiftc refuses (no page is without a tag).
                    code.append(
                        emitted.code.contains("#sourceLocation(file:") ? emitted.code : emitted.code.replacingOccurrences(of: "#sourceLocation()\n", with: ""))
                } catch {
                    refused[key] = "the generator refuses it: \(error)"
                    continue
                }
                compiled.append(
                    CompiledCase(
                        key: key, index: index, expected: test.expected, declarations: models.declarations.keys.sorted().map { models.declarations[$0]! },
                        literal: root.literal))
            }
        }
        return (compiled, code, refused, all)
    }

    @Test func specCasesThroughTheGeneratedCode() throws {
        let (compiled, code, refused, all) = try Self.cases()
        // 95 of the 149 cases run; the lists name only cases of the spec.
        #expect(compiled.count == 95)
        for key in Array(Self.notApplicable.keys) + Array(Self.differs.keys) { #expect(all.contains(key), "\(key) is no spec case") }
        #expect(refused.isEmpty, "\(refused.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: "\n"))")
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("zaiko-spec-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let runtime = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sources/TemplateRuntime").standardized
        var sources = try FileManager.default.contentsOfDirectory(atPath: runtime.path).filter { $0.hasSuffix(".swift") }.map {
            runtime.appendingPathComponent($0).path
        }
        let generated = root.appendingPathComponent("Generated.swift")
        try code.joined(separator: "\n").write(to: generated, atomically: true, encoding: .utf8)
        sources.append(generated.path)
        var main = "var out: [UInt8] = []\n"
        for item in compiled {
            let models = root.appendingPathComponent("case\(item.index).swift")
            try item.declarations.joined(separator: "\n").write(to: models, atomically: true, encoding: .utf8)
            sources.append(models.path)
            main += "do { var w = HTMLWriter(); \(item.literal).render(into: &w); out += w.bytes; out.append(0) }\n"
        }
        main += "print(String(decoding: out, as: UTF8.self), terminator: \"\")\n"
        let mainFile = root.appendingPathComponent("main.swift")
        try main.write(to: mainFile, atomically: true, encoding: .utf8)
        let binary = root.appendingPathComponent("spec")
        let compile = try GeneratedSwift.run(["swiftc", "-o", binary.path] + sources + [mainFile.path])
        if compile.status != 0 {
            // Each error by the spec case whose template or view models it is in.
            let keys = Dictionary(uniqueKeysWithValues: compiled.map { ($0.index, $0.key) })
            for line in compile.output.split(separator: "\n") where line.contains(": error: ") {
                let index = line.firstMatch(of: /case(\d+)[.-]/).flatMap { Int($0.1) }
                Issue.record("\(index.flatMap { keys[$0] } ?? "?"): \(line)")
            }
        }
        try #require(compile.status == 0)
        let run = try GeneratedSwift.run([binary.path])
        let outputs = run.output.split(separator: "\0", omittingEmptySubsequences: false).map(String.init)
        try #require(outputs.count == compiled.count + 1)
        for (item, output) in zip(compiled, outputs) {
            if Self.differs[item.key] != nil {
                #expect(output != item.expected, "\(item.key) passes now: take it off differs")
            } else {
                #expect(output == item.expected, "\(item.key)")
            }
        }
    }
}
