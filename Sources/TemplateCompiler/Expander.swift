/// Partials and `{{<parent}}` inheritance resolved before rendering, so a compiled page is one
/// function: each `{{>name}}` is replaced by the partial's nodes (its lines indented like the
/// tag), each `{{<parent}}` by the parent with the child's blocks in place of its own.
///
/// The generator expands everything at build time, so a partial that includes itself (directly
/// or not) is an error there; the interpreter expands one level at a time while rendering.
public struct Expander {
    /// The source of a template by name (`partials/notice`), nil when there is none.
    public let source: (String) -> (text: String, file: String)?

    public init(source: @escaping (String) -> (text: String, file: String)?) { self.source = source }

    /// `name`'s nodes, its lines prefixed with `indent` (the spec's standalone partial rule).
    public func template(_ name: String, indent: String = "", at location: Location) throws -> [Node] {
        guard let found = source(name) else { throw TemplateError(location, "no template \"\(name)\" for {{>\(name)}} (looked for \(name).mustache)") }
        return try Parser.parse(Self.indent(found.text, by: indent), file: found.file)
    }

    /// Every partial and parent replaced, all the way down.
    public func expandAll(_ nodes: [Node], overrides: [String: [Node]] = [:], including: [String] = []) throws -> [Node] {
        try nodes.flatMap { node -> [Node] in
            switch node {
            case .text, .variable: return [node]
            case .section(let name, let body, let location):
                return [.section(name, try expandAll(body, overrides: overrides, including: including), at: location)]
            case .inverted(let name, let body, let location):
                return [.inverted(name, try expandAll(body, overrides: overrides, including: including), at: location)]
            case .block(let name, let body, _):
                return try overrides[name] ?? expandAll(body, overrides: overrides, including: including)
            case .partial(let name, let indent, let location):
                guard !including.contains(name) else {
                    throw TemplateError(
                        location, "{{>\(name)}} includes itself (\((including + [name]).joined(separator: " → "))): a compiled page cannot recurse")
                }
                return try expandAll(template(name, indent: indent, at: location), overrides: overrides, including: including + [name])
            case .parent(let name, let body, let indent, let location):
                guard !including.contains("<" + name) else { throw TemplateError(location, "{{<\(name)}} inherits from itself") }
                let parent = try template(name, indent: indent, at: location)
                return try expandAll(
                    parent, overrides: Self.overrides(in: body, outer: overrides, expand: { try expandAll($0, overrides: overrides, including: including) }),
                    including: including + ["<" + name])
            }
        }
    }

    /// The blocks a `{{<parent}}` tag's body gives; those of a template further down (the
    /// child of the child) win.
    static func overrides(in body: [Node], outer: [String: [Node]], expand: ([Node]) throws -> [Node]) rethrows -> [String: [Node]] {
        var result = outer
        for case .block(let name, let content, _) in body where result[name] == nil { result[name] = try expand(content) }
        return result
    }

    /// Each line of `text` prefixed with `indent`, except after the final newline.
    static func indent(_ text: String, by indent: String) -> String {
        guard !indent.isEmpty else { return text }
        var result = indent
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            result.append(character)
            index = text.index(after: index)
            if character == "\n" || character == "\r\n", index < text.endIndex { result += indent }
        }
        return result
    }
}
