import Foundation
import Testing

@testable import Web

@Suite("Templates and catalogs")
struct TemplateTests {
    let templates = repositoryRoot.appendingPathComponent("Templates")

    func templateFiles() throws -> [URL] {
        let enumerator = FileManager.default.enumerator(at: templates, includingPropertiesForKeys: nil)
        return (enumerator?.allObjects as? [URL] ?? []).filter { $0.pathExtension == "mustache" }
    }

    @Test func everyCatalogHasTheSameKeys() throws {
        let localizations = try Localizations(directory: templates.appendingPathComponent("locales"))
        #expect(Set(localizations.catalogs.keys).isSuperset(of: ["en", "ja"]))
        for (code, catalog) in localizations.catalogs {
            #expect(catalog.keys == localizations.fallback.keys, "\(code) differs from en: \(catalog.keys.symmetricDifference(localizations.fallback.keys).sorted())")
            #expect(!catalog.texts.values.contains(""), "\(code) has an empty text")
        }
    }

    @Test func everyTextATemplateUsesExistsInEveryCatalog() throws {
        let localizations = try Localizations(directory: templates.appendingPathComponent("locales"))
        let pattern = try Regex(#"\{\{\s*t\.([A-Za-z0-9_]+)\s*\}\}"#)
        var used: Set<String> = []
        for file in try templateFiles() {
            let text = try String(contentsOf: file, encoding: .utf8)
            for match in text.matches(of: pattern) {
                used.insert(String(text[match.range]).replacingOccurrences(of: "{{", with: "").replacingOccurrences(of: "}}", with: "")
                    .trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "t.", with: ""))
            }
        }
        #expect(!used.isEmpty)
        for (code, catalog) in localizations.catalogs {
            let missing = used.subtracting(catalog.keys)
            #expect(missing.isEmpty, "\(code) lacks \(missing.sorted())")
        }
    }

    @Test func noTemplateRendersUserTextUnescaped() throws {
        for file in try templateFiles() {
            let text = try String(contentsOf: file, encoding: .utf8)
            #expect(!text.contains("{{{"), "\(file.lastPathComponent) uses {{{ }}}")
            #expect(!text.contains("{{&"), "\(file.lastPathComponent) uses {{& }}")
        }
    }

    @Test(arguments: ["en", "ja"])
    func everyPageRendersInEachLanguage(code: String) async throws {
        let renderer = try await Renderer(templates: templates)
        let locale = try #require(renderer.localizations.catalogs[code])
        var pages: [any PageView] = samplePages(locale)
        pages += [400, 403, 404, 405, 413, 422, 500].map { ErrorPage(status: $0, locale: locale) }
        for page in pages {
            let html = renderer.html(page, locale: locale)
            #expect(html.hasPrefix("<!DOCTYPE html>"))
            #expect(html.contains("<html lang=\"\(code)\">"))
            #expect(html.contains("<title>\(page.title(locale)) · \(locale["app_name"])</title>"))
            #expect(html.contains("<h1"))
            #expect(!html.contains("{{"))
        }
    }

    @Test func errorPagesSayWhatHappenedInBothLanguages() async throws {
        let renderer = try await Renderer(templates: templates)
        let ja = try #require(renderer.localizations.catalogs["ja"])
        let html = renderer.html(ErrorPage(status: 413, locale: ja), locale: ja)
        #expect(html.contains("サイズが大きすぎます"))
        #expect(html.contains("413"))
    }

    /// One of each page with sample values, errors included, so every branch of a template renders.
    func samplePages(_ t: Catalog) -> [any PageView] {
        let field = FormField(name: "name", label: t["field_name"], value: "Aki <b>", error: t["name_required"], hint: t["password_hint"])
        let select = FormField(name: "language", label: t["field_language"], kind: .select, options: t.languageOptions(selected: "ja"))
        let checkbox = FormField(name: "remember", label: t["field_remember"], kind: .checkbox, checked: true)
        return [
            FormPage(heading: t["setup_heading"], intro: t["setup_intro"], formError: t["login_failed"], action: "/setup",
                     submitLabel: t["setup_submit"], fields: [field, select, checkbox], footerLink: ("/login", t["login_heading"])),
            HomePage(household: "Home", stock: [.init(id: 1, name: "Fridge", icon: "fridge", count: "3")], shopping: []),
            AccountPage(heading: t["account_heading"], saved: t["saved_profile"], profileFields: [field, select], passwordFields: [field],
                        devices: [.init(id: 1, label: "Chrome · Android", signedIn: "Monday", lastSeen: "today", isCurrent: true),
                                  .init(id: 2, label: "Safari · iPhone", signedIn: "Sunday", lastSeen: "yesterday", isCurrent: false)]),
            MembersPage(heading: t["members_heading"], error: t["last_owner"],
                        members: [.init(id: 1, name: "Aki", login: "aki", role: t["role_owner"], roleOptions: t.roleOptions(selected: .owner), isMe: true)],
                        invitations: [.init(id: 3, role: t["role_viewer"], expires: "next week")], newLink: "http://x/join/abc",
                        inviteRoles: t.roleOptions(selected: .member)),
        ]
    }
}
