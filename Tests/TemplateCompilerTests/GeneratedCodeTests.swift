import Foundation
import Testing

@testable import TemplateCompiler

/// The generated Swift, compiled and run, writes what the interpreter (which passes the spec
/// cases) renders from the same template over the same data: sections over Bool, Optional and
/// arrays, inverted sections, names found in outer contexts, dotted names through an optional,
/// partials with indentation, a layout with blocks, escaping.
@Suite struct GeneratedCodeTests {
    static let templates = [
        "page": """
        {{! compiled: Page in Chrome }}
        {{<frame}}
        {{$body}}
        <h1 title="{{title}}">{{title}}</h1>
        {{#me}}
        <p>{{name}} of {{household}}: {{title}}</p>
        {{/me}}
        {{^me}}<p>nobody</p>{{/me}}
        <ul>
        {{#items}}
          {{>partials/item}}
        {{/items}}
        </ul>
        {{^items}}<p>none</p>{{/items}}
        {{#flag}}on{{/flag}}{{^flag}}off{{/flag}}
        {{#me.isOwner}}owner{{/me.isOwner}}{{^me.isOwner}}member{{/me.isOwner}}
        {{#tags}}[{{.}}]{{/tags}}
        {{/body}}
        {{/frame}}

        """,
        "frame": "<main lang=\"{{lang}}\">\n{{$body}}default{{/body}}\n</main>\n",
        "partials/item": "<li data-n='{{name}}'>{{name}}{{#note}} ({{.}}){{/note}}\n{{title}} {{count}}</li>\n",
    ]

    static let model = #"""
        struct Chrome { let lang: String; let me: Member? }
        struct Member { let name: String; let household: String; let isOwner: Bool }
        struct Page { let title: String; let items: [Item]; let flag: Bool; let tags: [String] }
        struct Item { let name: String; let note: String?; let count: Int }
        let hostile = "x\"\u{301} y='\u{FE0F} <b>&amp;"
        let page = Page(title: hostile, items: [Item(name: "milk", note: hostile, count: 2), Item(name: "rice", note: nil, count: 10)], flag: true, tags: ["a", "<b>"])
        var w = HTMLWriter()
        page.render(in: Chrome(lang: "en", me: Member(name: "Aki", household: "Home", isOwner: true)), into: &w)
        Page(title: "t", items: [], flag: false, tags: []).render(in: Chrome(lang: "ja", me: nil), into: &w)
        print(String(decoding: w.bytes, as: UTF8.self), terminator: "")
        """#

    @Test func generatedCodeRendersLikeTheInterpreter() throws {
        let hostile = "x\"\u{301} y='\u{FE0F} <b>&amp;"
        typealias V = Interpreter.Value
        let first: V = .object([
            "lang": .string("en"), "me": .object(["name": .string("Aki"), "household": .string("Home"), "isOwner": .bool(true)]),
            "title": .string(hostile), "flag": .bool(true), "tags": .list([.string("a"), .string("<b>")]),
            "items": .list([
                .object(["name": .string("milk"), "note": .string(hostile), "count": .number(2)]),
                .object(["name": .string("rice"), "count": .number(10)]),
            ]),
        ])
        let second: V = .object(["lang": .string("ja"), "title": .string("t"), "flag": .bool(false), "tags": .list([]), "items": .list([])])
        let interpreter = Interpreter(partials: Self.templates)
        let expected = try interpreter.render(Self.templates["page"]!, first) + interpreter.render(Self.templates["page"]!, second)

        let result = try GeneratedSwift(templates: Self.templates).swiftc(model: Self.model, run: true)
        #expect(result.status == 0)
        #expect(result.output == expected)
        // And what both wrote is what the template means (not two engines agreeing on a mistake).
        // (Compared as bytes: Swift's String search works by Character, and ";" + U+0301 is one.)
        #expect(holds(expected, "<h1 title=\"x&quot;\u{301} y=&#39;\u{FE0F} &lt;b&gt;&amp;amp;\">"))
        #expect(holds(expected, "<p>Aki of Home: x&quot;\u{301}"))
        #expect(holds(expected, "  <li data-n='milk'>milk (x&quot;\u{301} y=&#39;\u{FE0F} &lt;b&gt;&amp;amp;)\n  x&quot;\u{301}"))
        #expect(holds(expected, "  <li data-n='rice'>rice\n  x&quot;\u{301} y=&#39;\u{FE0F} &lt;b&gt;&amp;amp; 10</li>\n</ul>\n"))
        #expect(holds(expected, "on\nowner\n[a][&lt;b&gt;]\n"))
        #expect(holds(expected, "<main lang=\"ja\">\n<h1 title=\"t\">t</h1>\n<p>nobody</p>\n<ul>\n</ul>\n<p>none</p>\noff\nmember\n"))
    }
}

/// Whether `text` holds `part`, byte for byte.
func holds(_ text: String, _ part: String) -> Bool {
    let text = Array(text.utf8), part = Array(part.utf8)
    guard part.count <= text.count else { return false }
    return (0...(text.count - part.count)).contains { text[$0..<$0 + part.count].elementsEqual(part) }
}
