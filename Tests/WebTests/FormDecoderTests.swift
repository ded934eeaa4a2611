import HTTPServer
import Inventory
import Testing

@testable import Web

@Suite("Forms decoded into typed structs")
struct FormDecoderTests {
    struct Draft: Decodable, Equatable {
        var name: String
        var quantity: String
        var urgent: Bool
    }

    struct Form: Decodable, Equatable {
        var action: String
        var folder: Folder.ID?
        var version: Int?
        var delta: Double?
        var remove: String?
        var discardUnfit: Bool
        var kind: [String]
        var d0: Draft
        var d1: Draft?
    }

    func decode(_ pairs: [(String, String)]) throws -> Form {
        try FormDecoder().decode(Form.self, from: Parameters(pairs.map { (name: $0.0, value: $0.1) }))
    }

    @Test func readsEachFieldAsTheHandlersDid() throws {
        let form = try decode([
            ("action", "  save \n"), ("folder", "12"), ("version", "3"), ("delta", "-1.5"), ("discard_unfit", "1"), ("kind", "dairy"),
            ("kind", "fish"), ("d0.name", " Milk "), ("d0.quantity", "2"), ("d0.urgent", "1"), ("d1.name", "Eggs"), ("folder", "99"),
        ])
        #expect(form.action == "save")
        // The first of a repeated name, as `Parameters[name]` gives it; every one for an array.
        #expect(form.folder == 12)
        #expect(form.kind == ["dairy", "fish"])
        #expect(form.version == 3)
        #expect(form.delta == -1.5)
        #expect(form.discardUnfit)
        #expect(form.remove == nil)
        #expect(form.d0 == Draft(name: "Milk", quantity: "2", urgent: true))
        #expect(form.d1 == Draft(name: "Eggs", quantity: "", urgent: false))
    }

    /// Absent or malformed fields are defaults, never a failure: the handler decides what to say.
    @Test func missingAndMalformedFieldsAreDefaults() throws {
        let form = try decode([("folder", "twelve"), ("version", ""), ("delta", "a lot"), ("discard_unfit", "yes"), ("remove", " 0 ")])
        #expect(form.action == "")
        #expect(form.folder == nil)
        #expect(form.version == nil)
        #expect(form.delta == nil)
        #expect(!form.discardUnfit)
        #expect(form.kind == [])
        #expect(form.remove == "0")
        #expect(form.d0 == Draft(name: "", quantity: "", urgent: false))
        #expect(form.d1 == nil)
    }

    /// A number past what the field holds is no number, as `Int64(text)` said.
    @Test func aNumberPastItsTypeIsNil() throws {
        #expect(try decode([("folder", "99999999999999999999")]).folder == nil)
        #expect(try decode([("delta", "inf")]).delta == .infinity)
    }

    struct Required: Decodable { var count: Int }

    @Test func aRequiredNumberThatIsMissingFails() {
        #expect(throws: DecodingError.self) { try FormDecoder().decode(Required.self, from: Parameters([("count", "x")])) }
        #expect((try? FormDecoder().decode(Required.self, from: Parameters([("count", "4")])))?.count == 4)
    }

    struct Password: Decodable {
        var login: String
        var password: Verbatim
        var confirm: Verbatim
    }

    /// A password keeps its spaces; the text beside it is trimmed as ever.
    @Test func verbatimTextKeepsItsWhiteSpace() throws {
        let form = try FormDecoder().decode(Password.self, from: Parameters([("login", " ana "), ("password", " pass word\t")]))
        #expect(form.login == "ana")
        #expect(form.password == Verbatim(" pass word\t"))
        #expect(form.confirm == Verbatim(""))
    }
}
