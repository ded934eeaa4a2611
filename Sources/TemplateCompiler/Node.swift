/// A parsed Mustache template: what the generator turns into Swift and the interpreter renders.
public indirect enum Node: Equatable, Sendable {
    case text(String)
    /// `{{name}}` (escaped) or `{{{name}}}` / `{{&name}}` (not escaped).
    case variable(Name, escaped: Bool, at: Location)
    case section(Name, [Node], at: Location)
    case inverted(Name, [Node], at: Location)
    /// `{{>name}}`; `indent` is the whitespace in front of a standalone partial tag.
    case partial(String, indent: String, at: Location)
    /// `{{$name}}…{{/name}}`: a block a child template may replace.
    case block(String, [Node], at: Location)
    /// `{{<name}}…{{/name}}`: this template fills the blocks of `name`.
    case parent(String, [Node], indent: String, at: Location)
}

/// A name as written: `.` is `[]`, `a.b.c` is `["a", "b", "c"]`.
public struct Name: Equatable, Sendable, CustomStringConvertible {
    public let parts: [String]
    public init(_ text: String) { parts = text == "." ? [] : text.split(separator: ".", omittingEmptySubsequences: false).map(String.init) }
    public var isImplicit: Bool { parts.isEmpty }
    public var description: String { isImplicit ? "." : parts.joined(separator: ".") }
}

/// A place in a template file, for messages and `#sourceLocation`.
public struct Location: Equatable, Sendable, CustomStringConvertible {
    public let file: String
    public let line: Int
    public init(file: String, line: Int) {
        self.file = file
        self.line = line
    }
    public var description: String { "\(file):\(line)" }
}

/// A template that cannot be compiled, with where.
public struct TemplateError: Error, Equatable, CustomStringConvertible {
    public let location: Location
    public let message: String
    public init(_ location: Location, _ message: String) {
        self.location = location
        self.message = message
    }
    /// The form compilers print, which editors and SwiftPM show against the file.
    public var description: String { "\(location.file):\(location.line): error: \(message)" }
}
