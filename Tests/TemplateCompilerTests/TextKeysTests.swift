import Foundation
import Testing

@testable import TemplateCompiler

/// The catalogs for Swift code: a member per key, so a key no catalog has fails the build, and
/// the texts embedded.
@Suite struct TextKeysTests {
    static let page = ["page": "{{! compiled: Page }}\n<p>{{title}}</p>\n"]
    static let locales = [
        "en": ["hello": "Hello, {name}", "item_count": "{count} items", "item_count_one": "{count} item", "soon_=1": "Tomorrow", "soon": "In {count} days"],
        "ja": ["hello": "こんにちは、{name}", "item_count": "{count}件", "item_count_one": "{count}件", "soon_=1": "明日", "soon": "{count}日以内"],
    ]

    @Test func aKeyUsedFromSwiftBuildsAndAKeyNoCatalogHasDoesNot() throws {
        let templates = try GeneratedSwift(templates: Self.page, locales: Self.locales)
        let model = "struct Page { let title: String }\n"
        let known = try templates.swiftc(model: model + "let keys: [TextKey] = [.hello, .itemCount, .soon]\n", run: false)
        #expect(known.status == 0, "\(known.output)")
        let unknown = try templates.swiftc(model: model + "let key: TextKey = .goodbye\n", run: false)
        #expect(unknown.status != 0)
        #expect(unknown.output.contains("goodbye"))
        // A counted phrase is its bare key: its forms are texts, not keys.
        let form = try templates.swiftc(model: model + "let key: TextKey = .itemCountOne\n", run: false)
        #expect(form.status != 0)
    }

    @Test func everyLanguagesTextsAreEmbeddedFormsIncluded() throws {
        let code = try GeneratedSwift(templates: Self.page, locales: Self.locales).generate()
        #expect(code.contains(#"static var itemCount: TextKey { TextKey("item_count") }"#))
        #expect(!code.contains("itemCountOne"))
        #expect(code.contains(#""item_count_one": "{count}件""#))
        #expect(code.contains(#""soon_=1": "明日""#))
        #expect(code.contains(#"static let names: Set<String> = ["hello", "item_count", "soon"]"#))
    }

    @Test func aKeyWithFormsOfItsOwnIsAKeyNotAForm() {
        let keys: Set = ["notice_copied", "notice_copied_many", "notice_copied_many_one", "qty_g", "qty_g_one", "due_=1", "due"]
        #expect(!TextKeys.isForm("notice_copied_many", of: keys))
        #expect(TextKeys.isForm("notice_copied_many_one", of: keys))
        #expect(TextKeys.isForm("qty_g_one", of: keys))
        #expect(TextKeys.isForm("due_=1", of: keys))
        #expect(!TextKeys.isForm("due", of: keys))
        // `_one` without its bare key is a key of its own.
        #expect(!TextKeys.isForm("someone_one", of: keys))
    }

    @Test func aKeyMissingFromOneLanguageFailsTheGeneratorAtThatCatalog() throws {
        var locales = Self.locales
        locales["ja"]?["hello"] = nil
        let templates = try GeneratedSwift(templates: Self.page, locales: locales)
        #expect {
            try templates.generate()
        } throws: { error in
            let error = error as? TemplateError
            return error?.location.file.hasSuffix("locales/ja.json") == true && error?.message.contains("\"hello\"") == true
        }
    }

    @Test func twoKeysSpelledAsOneMemberFailTheGenerator() throws {
        let templates = try GeneratedSwift(templates: Self.page, locales: ["en": ["soy_sauce": "Soy sauce", "soy-sauce": "Soy sauce"]])
        #expect {
            try templates.generate()
        } throws: { error in
            (error as? TemplateError)?.message.contains("soySauce") == true
        }
    }

    @Test func membersAreCamelCaseAndNeverKeywords() {
        #expect(TextKeys.memberName("item_saved") == "itemSaved")
        #expect(TextKeys.memberName("illustration_soy-sauce") == "illustrationSoySauce")
        #expect(TextKeys.memberName("qty_L") == "qtyL")
        #expect(TextKeys.memberName("default") == "`default`")
    }
}
