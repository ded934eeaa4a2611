import Testing

@testable import TemplateCompiler

@Suite struct ParserTests {
    @Test func standaloneSectionLinesLeaveNoBlankLine() throws {
        let nodes = try Parser.parse("a\n{{#x}}\nb\n{{/x}}\nc", file: "t.mustache")
        #expect(nodes == [.text("a\n"), .section(Name("x"), [.text("b\n")], at: Location(file: "t.mustache", line: 2)), .text("c")])
    }
}
