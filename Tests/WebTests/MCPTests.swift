import Foundation
import HTTPServer
import TestSupport
import Testing

@testable import Inventory
@testable import Web

/// `/api/v1/mcp`: the API's operations as MCP tools, with the caller's token, scopes and language.
@Suite("The MCP endpoint")
struct MCPTests {
    let home: HouseholdFixture

    init() async throws {
        home = try await HouseholdFixture()
    }

    func token(_ session: String, _ scope: TokenScope) throws -> String {
        let member = try #require(try home.accounts.session(token: session))
        return try home.accounts.createToken(name: "assistant", scope: scope.rawValue, memberId: member.memberId).secret
    }

    /// One JSON-RPC message; the answer's object (nil for a notification's empty answer). Sent from
    /// a thread of its own, as the server's answering threads do: the MCP server works on the
    /// cooperative pool, which a waiting test must not hold.
    func send(_ message: [String: Any], token: String?, language: String? = nil) async throws -> (Response, [String: Any]?) {
        var headers = [("Host", "zaiko.test"), ("Content-Type", "application/json"), ("Accept", "application/json, text/event-stream")]
        if let token { headers.append(("Authorization", "Bearer \(token)")) }
        if let language { headers.append(("Accept-Language", language)) }
        let body = Array(try JSONSerialization.data(withJSONObject: message))
        let request = Request(method: "POST", path: "/api/v1/mcp", headers: Headers(headers), body: body, clientAddress: "192.168.1.40")
        let app = home.app
        let response = try await offThePool { app.respond(to: request) }
        guard case .bytes(let bytes) = response.body, !bytes.isEmpty else { return (response, nil) }
        return (response, try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    func call(_ tool: String, _ arguments: [String: Any], token: String, language: String? = nil) async throws -> (isError: Bool, json: Any?) {
        let (_, answer) = try await send(
            ["jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": ["name": tool, "arguments": arguments]], token: token, language: language)
        let result = try #require(answer?["result"] as? [String: Any], "\(String(describing: answer))")
        let text = try #require(((result["content"] as? [[String: Any]])?.first)?["text"] as? String)
        return (result["isError"] as? Bool ?? false, try? JSONSerialization.jsonObject(with: Data(text.utf8)))
    }

    @Test func anAssistantListsTheToolsAndUsesThemAsTheTokensMember() async throws {
        let owner = try token(home.owner, .all)
        let (started, hello) = try await send(
            [
                "jsonrpc": "2.0", "id": 1, "method": "initialize",
                "params": ["protocolVersion": "2025-06-18", "capabilities": [:], "clientInfo": ["name": "test", "version": "1"]],
            ], token: owner)
        #expect(started.status == 200)
        #expect(((hello?["result"] as? [String: Any])?["serverInfo"] as? [String: Any])?["name"] as? String == "zaiko")

        let (_, listed) = try await send(["jsonrpc": "2.0", "id": 2, "method": "tools/list"], token: owner)
        let tools = try #require((listed?["result"] as? [String: Any])?["tools"] as? [[String: Any]])
        let names = Set(tools.compactMap { $0["name"] as? String })
        // Every operation of the document but the event stream, under its operationId.
        #expect(names == Set(APIOperation.all.map(\.id)).subtracting(["streamEvents"]))
        let create = try #require(tools.first { $0["name"] as? String == "createItems" })
        let schema = try #require(create["inputSchema"] as? [String: Any])
        let properties = try #require(schema["properties"] as? [String: Any])
        #expect(Set(properties.keys) == ["folderId", "idempotency_key", "body"])
        // Schemas are whole: no reference to the document's components is left.
        #expect(!String(decoding: try JSONSerialization.data(withJSONObject: schema), as: UTF8.self).contains("$ref"))

        let folders = try await call("listFolders", [:], token: owner)
        #expect(!folders.isError)
        let fridge = try #require(((folders.json as? [String: Any])?["folders"] as? [[String: Any]])?.first { $0["kind"] as? String == "stock" })
        let added = try await call("createItems", ["folderId": fridge["id"] as Any, "body": ["items": [["name": "Eggs", "quantity": 6]]]], token: owner)
        #expect(!added.isError)
        let eggs = try #require(((added.json as? [String: Any])?["items"] as? [[String: Any]])?.first)
        let used = try await call("adjustQuantity", ["itemId": eggs["id"] as Any, "body": ["delta": -2]], token: owner)
        #expect((used.json as? [String: Any])?["quantity"] as? Double == 4)
        let household = try #require(try home.accounts.session(token: home.owner)).household
        #expect(try home.items.item(Item.ID(rawValue: Int64(eggs["id"] as? Int ?? 0)), in: household).quantity == 4)
    }

    @Test func aToolCallIsHeldToTheTokensScopeAndAnswersInTheMembersLanguage() async throws {
        let shopping = try token(home.member, .shopping)
        let refused = try await call("adjustQuantity", ["itemId": home.itemId.rawValue, "body": ["delta": 1]], token: shopping, language: "ja")
        #expect(refused.isError)
        #expect((refused.json as? [String: Any])?["type"] as? String == "/api#forbidden_scope")
        #expect((refused.json as? [String: Any])?["title"] as? String == "このトークンではできません")
        // Another household's item is not found, as over HTTP.
        let other = try token(home.otherOwner, .all)
        #expect((try await call("getItem", ["itemId": home.itemId.rawValue], token: other).json as? [String: Any])?["status"] as? Int == 404)
        #expect(try await call("noSuchTool", [:], token: other).isError)
    }

    @Test func withoutAValidTokenNothingIsAnswered() async throws {
        let (none, problem) = try await send(["jsonrpc": "2.0", "id": 1, "method": "tools/list"], token: nil)
        #expect(none.status == 401)
        #expect(problem?["type"] as? String == "/api#unauthorized")
        let owner = try token(home.owner, .all)
        let me = try #require(try home.accounts.session(token: home.owner)).memberId
        let id = try #require(try home.accounts.tokens(of: me).first?.id)
        try home.accounts.revokeToken(id, memberId: me)
        #expect(try await send(["jsonrpc": "2.0", "id": 1, "method": "tools/list"], token: owner).0.status == 401)
    }
}
