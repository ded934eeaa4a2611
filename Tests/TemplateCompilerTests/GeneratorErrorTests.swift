import Foundation
import Testing

@testable import TemplateCompiler

/// A template that names what does not exist fails the build at the template's file and line.
@Suite struct GeneratorErrorTests {
    static let model = """
        struct Page { let title: String; let items: [Item] }
        struct Item { let name: String }
        """

    @Test func aMissingFieldFailsTypeCheckingAtTheTemplatesLine() throws {
        let templates = try GeneratedSwift(templates: [
            "page": "{{! compiled: Page }}\n<h1>{{title}}</h1>\n<ul>{{#items}}\n<li>{{name}} {{weight}}</li>\n{{/items}}</ul>\n"
        ])
        let result = try templates.swiftc(model: Self.model, run: false)
        #expect(result.status != 0)
        // Line 4 of the template, where {{weight}} is; `name` (line 4 too) and `title` resolve.
        #expect(result.output.contains("\(templates.path("page")):4:"), "\(result.output)")
        #expect(result.output.contains("weight"))
        #expect(!result.output.contains("'name'") && !result.output.contains("'title'"))
    }

    @Test func theSameTemplateWithTheFieldTypeChecks() throws {
        let templates = try GeneratedSwift(templates: ["page": "{{! compiled: Page }}\n<h1>{{title}}</h1>{{#items}}<li>{{name}}</li>{{/items}}\n"])
        let result = try templates.swiftc(model: Self.model, run: false)
        #expect(result.status == 0, "\(result.output)")
    }

    @Test func aMissingPartialIsReportedWithFileAndLine() throws {
        let templates = try GeneratedSwift(templates: [
            "page": "{{! compiled: Page }}\n<h1>{{title}}</h1>\n\n  {{>partials/nowhere}}\n",
            "partials/here": "x",
        ])
        #expect {
            try templates.generate()
        } throws: { error in
            let error = error as? TemplateError
            return error?.location == Location(file: templates.path("page"), line: 4) && error?.message.contains("partials/nowhere") == true
                && error?.description.hasPrefix("\(templates.path("page")):4: error:") == true
        }
    }

    @Test func aMissingPartialInsideAPartialNamesThePartialsLine() throws {
        let templates = try GeneratedSwift(templates: [
            "page": "{{! compiled: Page }}\n{{>partials/outer}}\n",
            "partials/outer": "one\ntwo {{>partials/gone}}\n",
        ])
        #expect {
            try templates.generate()
        } throws: { error in
            (error as? TemplateError)?.location == Location(file: templates.path("partials/outer"), line: 2)
        }
    }

    @Test func aLabelMissingFromOneLanguageFailsTheGenerator() throws {
        let templates = try GeneratedSwift(
            templates: ["page": "{{! compiled: Page }}\n\n<p>{{t.hello}}</p>\n"],
            locales: ["en": ["hello": "Hello"], "ja": ["other": "…"]])
        #expect {
            try templates.generate()
        } throws: { error in
            let error = error as? TemplateError
            return error?.location == Location(file: templates.path("page"), line: 3) && error?.message.contains("ja.json") == true
        }
    }

    @Test func aTemplateNotOptedInIsNotCompiled() throws {
        let templates = try GeneratedSwift(templates: ["page": "<h1>{{nothing.checks.me}}</h1>\n{{>partials/gone}}\n"])
        #expect(!(try templates.generate()).contains("extension"))
    }

    @Test func anUnclosedSectionNamesItsLine() throws {
        #expect {
            try Parser.parse("a\n\n{{#open}}\nb", file: "x.mustache")
        } throws: { error in
            (error as? TemplateError)?.location == Location(file: "x.mustache", line: 3)
        }
    }
}
