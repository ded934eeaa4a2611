import TemplateRuntime

/// Renders the same parse tree the generator compiles, over untyped data (JSON-like `Value`s),
/// by Mustache's rules. It exists to run the official spec cases against the parser, the
/// standalone-line rules, the partial indentation and the inheritance expansion the generator
/// uses; pages never render through it.
public struct Interpreter {
    public indirect enum Value: Equatable, Sendable, Decodable {
        case null
        case bool(Bool)
        case number(Double)
        case string(String)
        case list([Value])
        case object([String: Value])

        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let value = try? container.decode(Bool.self) {
                self = .bool(value)
            } else if let value = try? container.decode(Double.self) {
                self = .number(value)
            } else if let value = try? container.decode(String.self) {
                self = .string(value)
            } else if let value = try? container.decode([Value].self) {
                self = .list(value)
            } else {
                self = .object(try container.decode([String: Value].self))
            }
        }

        var isFalsey: Bool {
            switch self {
            case .null, .bool(false): return true
            case .list(let values): return values.isEmpty
            default: return false
            }
        }

        var text: String {
            switch self {
            case .null: return ""
            case .bool(let value): return value ? "true" : "false"
            case .number(let value):
                return value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
            case .string(let value): return value
            case .list, .object: return ""
            }
        }
    }

    let expander: Expander

    /// `partials`: template name → source.
    public init(partials: [String: String]) {
        expander = Expander { name in partials[name].map { ($0, name) } }
    }

    public func render(_ template: String, _ data: Value) throws -> String {
        var out = ""
        try render(try Parser.parse(template, file: "template"), stack: [data], overrides: [:], into: &out)
        return out
    }

    private func render(_ nodes: [Node], stack: [Value], overrides: [String: [Node]], into out: inout String) throws {
        for node in nodes {
            switch node {
            case .text(let text):
                out += text
            case .variable(let name, let escaped, _):
                let text = lookup(name, stack).text
                out += escaped ? HTMLEscaping.escape(text) : text
            case .section(let name, let body, _):
                let value = lookup(name, stack)
                guard !value.isFalsey else { continue }
                if case .list(let values) = value {
                    for element in values { try render(body, stack: stack + [element], overrides: overrides, into: &out) }
                } else {
                    try render(body, stack: stack + [value], overrides: overrides, into: &out)
                }
            case .inverted(let name, let body, _):
                if lookup(name, stack).isFalsey { try render(body, stack: stack, overrides: overrides, into: &out) }
            case .partial(let name, let indent, let location):
                // A missing partial renders nothing here, as the spec says; the generator refuses it.
                guard let nodes = try? expander.template(name, indent: indent, at: location) else { continue }
                try render(nodes, stack: stack, overrides: overrides, into: &out)
            case .block(let name, let body, _):
                try render(overrides[name] ?? body, stack: stack, overrides: overrides, into: &out)
            case .parent(let name, let body, let indent, let location):
                guard let parent = try? expander.template(name, indent: indent, at: location) else { continue }
                try render(parent, stack: stack, overrides: Expander.overrides(in: body, outer: overrides, expand: { $0 }), into: &out)
            }
        }
    }

    /// The first context (innermost first) with the name's first part, then the rest from there.
    private func lookup(_ name: Name, _ stack: [Value]) -> Value {
        guard let first = name.parts.first else { return stack.last ?? .null }
        var value: Value = .null
        for context in stack.reversed() {
            if case .object(let members) = context, let found = members[first] {
                value = found
                break
            }
        }
        for part in name.parts.dropFirst() {
            guard case .object(let members) = value, let found = members[part] else { return .null }
            value = found
        }
        return value
    }
}
