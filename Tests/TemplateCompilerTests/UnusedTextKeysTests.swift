import Foundation
import Testing

@testable import TemplateCompiler

/// Every key of the catalogs is used somewhere: by a template (`{{t.key}}`), by Swift as a typed
/// key (`.itemSaved`), through a family of keys made from a code (`TextFamily("kind_")`), or
/// named as text (a field error's key written by the domain, `"item_name_required"`). A key none
/// of them uses is listed here until someone uses it or removes it from every catalog.
@Suite struct UnusedTextKeysTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized

    /// Known unused; say why when adding one.
    static let knownUnused: Set<String> = [
        // The batch editor's "leave with unsaved drafts?" warning: the page no longer asks.
        "drafts_leave_warning"
    ]

    static func files(under folder: String, ending suffix: String) -> [String] {
        let root = repository.appendingPathComponent(folder)
        let paths = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String } ?? []
        return paths.filter { $0.hasSuffix(suffix) }.compactMap { try? String(contentsOf: root.appendingPathComponent($0), encoding: .utf8) }
    }

    @Test func everyKeyIsUsedByATemplateOrBySwift() throws {
        let english = try JSONDecoder().decode(
            [String: String].self, from: Data(contentsOf: Self.repository.appendingPathComponent("Templates/locales/en.json")))
        let all = Set(english.keys)
        let keys = all.filter { !TextKeys.isForm($0, of: all) }
        let templates = Self.files(under: "Templates", ending: ".mustache").joined(separator: "\n")
        let swift = Self.files(under: "Sources", ending: ".swift").joined(separator: "\n")
        let families = swift.matches(of: #/TextFamily\("([a-z_]*)"(?:, suffix: "([a-z_]*)")?\)/#).map { (String($0.1), String($0.2 ?? "")) }
        #expect(families.count > 10)
        let usedBySwift = Set(swift.matches(of: #/\.([A-Za-z][A-Za-z0-9]*)\b/#).map { String($0.1) })
        let namedInSwift = Set(swift.matches(of: #/"([A-Za-z][\w-]*)"/#).map { String($0.1) })
        let unused = keys.filter { key in
            !templates.contains("t.\(key)}}") && !usedBySwift.contains(TextKeys.memberName(key).replacingOccurrences(of: "`", with: ""))
                && !namedInSwift.contains(key)
                && !families.contains { prefix, suffix in key.hasPrefix(prefix) && key.hasSuffix(suffix) && key.count > prefix.count + suffix.count }
        }
        #expect(
            unused == Self.knownUnused, "unused: \(unused.subtracting(Self.knownUnused).sorted()); used again: \(Self.knownUnused.subtracting(unused).sorted())"
        )
    }
}
