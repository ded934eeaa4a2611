/// Writes one compiled template as a Swift function over its view model.
///
/// Names resolve through `Scope` (TemplateRuntime): `{{name}}` is the innermost context's
/// `name`, else the next one out, decided by the Swift compiler from the view models' types;
/// each look-up carries `#sourceLocation` of its tag, so a name no context has fails the build
/// at the template's file and line.
public struct SwiftEmitter {
    /// The view model type and, for a page in the layout, the type of what the layout reads.
    public struct Signature: Sendable {
        public let model: String
        public let outer: String?
        public init(model: String, outer: String?) {
            self.model = model
            self.outer = outer
        }
    }

    private var out = ""
    private var depth = 0
    /// Per depth: whether the body used the scope / the element of that section.
    private var usedScope: [Bool] = [false]
    private var usedElement: [Bool] = [false]
    private var pendingText = ""
    private(set) var labels: [(key: String, location: Location)] = []

    public init() {}

    /// The extension that renders `nodes` (partials and parents already expanded).
    public static func emit(_ nodes: [Node], signature: Signature, file: String) throws -> (code: String, labels: [(key: String, location: Location)]) {
        var emitter = SwiftEmitter()
        try emitter.body(nodes)
        emitter.flushText()
        let parameters = signature.outer.map { "in outer: \($0), into w: inout HTMLWriter" } ?? "into w: inout HTMLWriter"
        let root = signature.outer == nil ? "Scope1(self)" : "Scope2(self, Scope1(outer))"
        var code = "// From \(file).\nextension \(signature.model) {\n"
        code += "    func render(\(parameters)) {\n"
        if emitter.usedScope[0] { code += "        let s0 = \(root)\n" }
        if emitter.usedElement[0] { code += "        let e0 = self\n" }
        code += emitter.out
        code += "#sourceLocation()\n    }\n}\n"
        return (code, emitter.labels)
    }

    private mutating func body(_ nodes: [Node]) throws {
        for node in nodes {
            switch node {
            case .text(let text):
                pendingText += text
            case .variable(let name, let escaped, let location):
                flushText()
                let value = expression(name, at: location)
                line(location, "w.\(escaped ? "text" : "unescaped")(\(value))")
            case .section(let name, let content, let location):
                flushText()
                let value = expression(name, at: location)
                let outerDepth = depth
                depth += 1
                usedScope.append(false)
                usedElement.append(false)
                let saved = out
                out = ""
                try body(content)
                flushText()
                let inner = out
                out = saved
                let scopeUsed = usedScope.removeLast(), elementUsed = usedElement.removeLast() || scopeUsed
                depth -= 1
                if scopeUsed { usedScope[outerDepth] = true }
                line(location, "for \(elementUsed ? "e\(depth + 1)" : "_") in Section.values(\(value)) {")
                if scopeUsed { line(location, "let s\(depth + 1) = Section.push(e\(depth + 1), s\(depth))") }
                out += inner
                out += "}\n"
            case .inverted(let name, let content, let location):
                flushText()
                line(location, "if Section.isEmpty(\(expression(name, at: location))) {")
                try body(content)
                flushText()
                out += "}\n"
            case .partial(let name, _, let location), .parent(let name, _, _, let location):
                throw TemplateError(location, "{{>\(name)}} was not expanded")
            case .block(_, let content, _):
                try body(content)
            }
        }
    }

    /// The Swift expression for a name at the current depth.
    private mutating func expression(_ name: Name, at location: Location) -> String {
        guard let first = name.parts.first else {
            usedElement[depth] = true
            return "e\(depth)"
        }
        usedScope[depth] = true
        if first == "t", name.parts.count == 2 {
            labels.append((name.parts[1], location))
            // A label is a stored text of `TemplateLabels`: read directly, not through a key path,
            // which the optimizer leaves as a runtime projection in the largest pages.
            return "s\(depth).t.\(Self.identifier(name.parts[1]))"
        }
        return name.parts.dropFirst().reduce("s\(depth).\(Self.identifier(first))") { "Section.member(\($0), \\.\(Self.identifier($1)))" }
    }

    private mutating func line(_ location: Location, _ statement: String) {
        out += "#sourceLocation(file: \(Self.literal(location.file)), line: \(location.line))\n\(statement)\n"
    }

    private mutating func flushText() {
        guard !pendingText.isEmpty else { return }
        out += "w.raw(\(Self.literal(pendingText)))\n"
        pendingText = ""
    }

    static func identifier(_ name: String) -> String {
        let keywords: Set<String> = [
            "class", "default", "func", "import", "in", "let", "var", "return", "self", "static", "struct", "is", "as", "case", "if", "else", "for", "while",
            "switch", "protocol", "extension", "init", "operator", "private", "public", "internal", "true", "false", "nil",
        ]
        return keywords.contains(name) ? "`\(name)`" : name
    }

    /// A Swift string literal with exactly `text`'s characters.
    public static func literal(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    result += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
