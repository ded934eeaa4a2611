/// Mustache's syntax with the spec's whitespace rules: a section, inverted section, comment,
/// partial, block or parent tag alone on its line takes the line with it ("standalone").
/// Not supported: changing delimiters (`{{=<% %>=}}`) — a parse error, not silent output.
public struct Parser {
    let source: [UInt8]
    let file: String
    var position = 0

    public static func parse(_ text: String, file: String) throws -> [Node] {
        var parser = Parser(source: Array(text.utf8), file: file)
        return try parser.nodes(until: nil)
    }

    enum Tag {
        case variable(String, escaped: Bool)
        case open(String, inverted: Bool)
        case close(String)
        case comment
        case partial(String)
        case block(String)
        case parent(String)
    }

    private func line(at offset: Int) -> Int { source[..<min(offset, source.count)].reduce(1) { $1 == 0x0A ? $0 + 1 : $0 } }

    private mutating func nodes(until closing: (name: String, location: Location)?) throws -> [Node] {
        var result: [Node] = []
        var text: [UInt8] = []
        func flush() {
            if !text.isEmpty { result.append(.text(String(decoding: text, as: UTF8.self))) }
            text = []
        }
        while position < source.count {
            guard startsWith("{{", at: position) else {
                text.append(source[position])
                position += 1
                continue
            }
            let tagStart = position
            let location = Location(file: file, line: line(at: tagStart))
            let (tag, tagEnd) = try readTag(at: tagStart, location)
            // Standalone: only spaces/tabs between the line's start and the tag, and between the
            // tag and the line's end.
            var indent = ""
            var standalone = false
            if tag.canStandAlone {
                var lineStart = tagStart
                while lineStart > 0, source[lineStart - 1] == 0x20 || source[lineStart - 1] == 0x09 { lineStart -= 1 }
                var lineEnd = tagEnd
                while lineEnd < source.count, source[lineEnd] == 0x20 || source[lineEnd] == 0x09 { lineEnd += 1 }
                let startsLine = lineStart == 0 || source[lineStart - 1] == 0x0A
                let endsLine =
                    lineEnd == source.count || source[lineEnd] == 0x0A || (source[lineEnd] == 0x0D && lineEnd + 1 < source.count && source[lineEnd + 1] == 0x0A)
                if startsLine && endsLine {
                    standalone = true
                    indent = String(decoding: source[lineStart..<tagStart], as: UTF8.self)
                    text.removeLast(tagStart - lineStart)
                    position = lineEnd == source.count ? lineEnd : source[lineEnd] == 0x0D ? lineEnd + 2 : lineEnd + 1
                }
            }
            if !standalone { position = tagEnd }
            switch tag {
            case .variable(let name, let escaped):
                flush()
                result.append(.variable(Name(name), escaped: escaped, at: location))
            case .comment:
                break
            case .partial(let name):
                flush()
                result.append(.partial(name, indent: indent, at: location))
            case .open(let name, let inverted):
                flush()
                let body = try nodes(until: (name, location))
                result.append(inverted ? .inverted(Name(name), body, at: location) : .section(Name(name), body, at: location))
            case .block(let name):
                flush()
                result.append(.block(name, try nodes(until: (name, location)), at: location))
            case .parent(let name):
                flush()
                result.append(.parent(name, try nodes(until: (name, location)), indent: indent, at: location))
            case .close(let name):
                guard let closing else { throw TemplateError(location, "{{/\(name)}} closes nothing") }
                guard closing.name == name else {
                    throw TemplateError(location, "{{/\(name)}} closes {{#\(closing.name)}} of line \(closing.location.line)")
                }
                flush()
                return result
            }
        }
        if let closing { throw TemplateError(closing.location, "{{#\(closing.name)}} is never closed") }
        flush()
        return result
    }

    private func startsWith(_ marker: String, at offset: Int) -> Bool {
        let bytes = Array(marker.utf8)
        return offset + bytes.count <= source.count && Array(source[offset..<offset + bytes.count]) == bytes
    }

    private func readTag(at start: Int, _ location: Location) throws -> (Tag, end: Int) {
        let triple = startsWith("{{{", at: start)
        let closer = triple ? "}}}" : "}}"
        var end = start + (triple ? 3 : 2)
        while end < source.count, !startsWith(closer, at: end) { end += 1 }
        guard end < source.count else { throw TemplateError(location, "a tag is never closed (no \(closer))") }
        let inside = String(decoding: source[(start + (triple ? 3 : 2))..<end], as: UTF8.self)
        let tagEnd = end + closer.utf8.count
        if triple { return (.variable(try name(inside, location), escaped: false), tagEnd) }
        guard let sigil = inside.trimmingSpaces.first else { throw TemplateError(location, "an empty tag") }
        let rest = String(inside.trimmingSpaces.dropFirst())
        switch sigil {
        case "!": return (.comment, tagEnd)
        case "#": return (.open(try name(rest, location), inverted: false), tagEnd)
        case "^": return (.open(try name(rest, location), inverted: true), tagEnd)
        case "/": return (.close(try name(rest, location)), tagEnd)
        case ">": return (.partial(try name(rest, location)), tagEnd)
        case "$": return (.block(try name(rest, location)), tagEnd)
        case "<": return (.parent(try name(rest, location)), tagEnd)
        case "&": return (.variable(try name(rest, location), escaped: false), tagEnd)
        case "=": throw TemplateError(location, "changing delimiters ({{=…=}}) is not supported")
        default: return (.variable(try name(inside, location), escaped: true), tagEnd)
        }
    }

    private func name(_ text: String, _ location: Location) throws -> String {
        let name = text.trimmingSpaces
        guard !name.isEmpty else { throw TemplateError(location, "a tag without a name") }
        return name
    }
}

extension Parser.Tag {
    var canStandAlone: Bool {
        if case .variable = self { return false }
        return true
    }
}

extension String {
    var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
