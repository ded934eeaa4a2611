import Foundation
import Mustache

/// swift-mustache's own HTML escaping works per Swift `Character`, so a quote followed by a
/// combining mark (`"` + U+0301, or + U+FE0F) is one Character and passes unescaped: a name like
/// `x"́ formaction=/elsewhere y="́` would add attributes to the owner's buttons. Every template
/// escapes with `HTML.escape` instead, which works per UTF-8 byte, the same escaper the rows
/// built in Swift use.
struct ScalarHTMLContentType: MustacheContentType {
    /// The name templates are given in their `CONTENT_TYPE` pragma.
    static let name = "ZAIKO_HTML"

    func escapeText(_ text: String) -> String { HTML.escape(text) }
}

enum TemplateLoader {
    /// The pragma put in front of every template. swift-mustache starts each partial with its
    /// built-in HTML escaping again, so each template file (pages, layout, partials) needs it;
    /// adding it here means no template can forget it. No newline after it: line numbers in
    /// parse errors stay those of the file.
    static let pragma = "{{% CONTENT_TYPE: \(ScalarHTMLContentType.name) }}"

    /// Every `.mustache` file under `directory`, named by its path without the extension
    /// (`partials/field`), as `MustacheLibrary(directory:)` names them.
    static func library(directory: URL) throws -> MustacheLibrary {
        MustacheContentTypes.register(ScalarHTMLContentType(), named: ScalarHTMLContentType.name)
        let root = directory.standardizedFileURL.path
        var library = MustacheLibrary()
        guard let paths = FileManager.default.enumerator(atPath: root) else { return library }
        for case let path as String in paths where path.hasSuffix(".mustache") {
            let text = try String(contentsOfFile: root + "/" + path, encoding: .utf8)
            do {
                try library.register(pragma + text, named: String(path.dropLast(".mustache".count)))
            } catch {
                throw TemplateError(file: path, underlying: error)
            }
        }
        return library
    }

    struct TemplateError: Error, CustomStringConvertible {
        let file: String
        let underlying: any Error
        var description: String { "template \(file): \(underlying)" }
    }
}
