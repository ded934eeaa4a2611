import Foundation
import HTTPServer
import Testing

@testable import Inventory
@testable import Web

/// `/api/v1` through the app: tokens made on the account page, problem details in the member's
/// language, scopes and roles, conditional and idempotent writes, paging, and the routes against
/// the document.
@Suite("The API")
struct APITests {
    let home: HouseholdFixture

    init() async throws {
        home = try await HouseholdFixture()
    }

    /// A token of the member behind `session`.
    func token(_ session: String, _ scope: TokenScope = .all) throws -> String {
        let member = try #require(try home.accounts.session(token: session))
        return try home.accounts.createToken(name: "test \(scope)", scope: scope.rawValue, memberId: member.memberId).secret
    }

    func call(
        _ method: String, _ path: String, token: String?, json: Any? = nil, headers: [(String, String)] = [], from address: String = "192.168.1.30"
    ) throws -> Response {
        home.app.respond(to: try request(method, path, token: token, json: json, headers: headers, from: address))
    }

    func request(
        _ method: String, _ path: String, token: String?, json: Any? = nil, headers: [(String, String)] = [], from address: String = "192.168.1.30"
    ) throws -> Request {
        var all = headers + [("Host", "zaiko.test")]
        if let token { all.append(("Authorization", "Bearer \(token)")) }
        var body: [UInt8] = []
        if let json {
            body = Array(try JSONSerialization.data(withJSONObject: json))
            all.append(("Content-Type", "application/json"))
        }
        let (route, query) = path.split(separator: "?", maxSplits: 1).map(String.init).splitFirst()
        let parameters = Parameters(
            (query ?? "").split(separator: "&").map {
                let pair = $0.split(separator: "=", maxSplits: 1).map(String.init)
                return (pair[0], (pair.count > 1 ? pair[1] : "").removingPercentEncoding ?? "")
            })
        return Request(method: method, path: route, query: parameters, headers: Headers(all), body: body, clientAddress: address)
    }

    func object(_ response: Response) throws -> [String: Any] {
        guard case .bytes(let bytes) = response.body else { throw InventoryError.notFound }
        return try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    func scope() throws -> HouseholdScope { try #require(try home.accounts.session(token: home.owner)).household }

    var milk: String { "/api/v1/items/\(home.itemId.rawValue)" }

    // MARK: - Tokens

    @Test func aTokenMadeOnTheAccountPageIsShownOnceWorksAndStopsTheMomentItIsRevoked() throws {
        let made = try home.send("POST", "/account/tokens", as: home.member, form: [("name", "Home Assistant"), ("scope", "shopping")])
        #expect(made.status == 200)
        let page = made.text
        let secret = try #require(page.firstMatch(of: /value="(zk_[A-Za-z0-9_-]+)"/)?.1).description
        #expect(page.contains("Home Assistant"))
        // Shown once: the account page never shows it again, and only its hash is stored.
        #expect(!(try home.send("GET", "/account", as: home.member).text.contains(secret)))
        let stored = try home.app.database.writer.read { db in try Data.fetchAll(db, sql: "SELECT token_hash FROM api_token") }
        #expect(!stored.contains(Data(secret.utf8)))

        let household = try call("GET", "/api/v1/household", token: secret)
        #expect(household.status == 200)
        let body = try object(household)
        #expect(body["name"] as? String == "Home")
        #expect((body["member"] as? [String: Any])?["name"] as? String == "Ken")
        #expect(body["scopes"] as? [String] == ["shopping"])
        // The account page says when and from where it was last used.
        #expect(try home.send("GET", "/account", as: home.member).text.contains("192.168.1.30"))

        let id = try #require(try home.accounts.tokens(of: home.memberId).first?.id)
        // Another member cannot revoke it.
        #expect(try home.send("POST", "/account/tokens/\(id.rawValue)/revoke", as: home.owner).status == 404)
        #expect(try call("GET", "/api/v1/household", token: secret).status == 200)
        #expect(try home.send("POST", "/account/tokens/\(id.rawValue)/revoke", as: home.member).status == 303)
        let refused = try call("GET", "/api/v1/household", token: secret)
        #expect(refused.status == 401)
        #expect(refused.header("WWW-Authenticate") == "Bearer")
    }

    @Test func aTokenWithoutANameComesBackBesideItsFieldWithWhatWasChosen() throws {
        let refused = try home.send("POST", "/account/tokens", as: home.member, form: [("name", "  "), ("scope", "stock")])
        #expect(refused.status == 422)
        #expect(refused.text.contains("Say what the token is for."))
        #expect(refused.text.contains(#"<option value="stock" selected>"#))
        #expect(try home.accounts.tokens(of: home.memberId).isEmpty)
        let wrongScope = try home.send("POST", "/account/tokens", as: home.member, form: [("name", "x"), ("scope", "root")])
        #expect(wrongScope.status == 422)
    }

    @Test func aViewerIsOfferedReadingOnly() throws {
        let page = try home.send("GET", "/account", as: home.viewer).text
        #expect(page.contains(#"<option value="read" selected>"#))
        #expect(!page.contains(#"<option value="all""#))
    }

    // MARK: - Problems

    @Test func noTokenOrAWrongOneIsAProblemInTheReadersLanguageAndManyWrongOnesAreThrottled() throws {
        let none = try call("GET", "/api/v1/folders", token: nil, headers: [("Accept-Language", "ja")])
        #expect(none.status == 401)
        #expect(none.header("Content-Type") == "application/problem+json")
        let problem = try object(none)
        #expect(problem["type"] as? String == "/api#unauthorized")
        #expect(problem["title"] as? String == "有効なトークンがありません")
        #expect(problem["status"] as? Int == 401)

        for _ in 0..<19 { #expect(try call("GET", "/api/v1/folders", token: "zk_guess", from: "10.0.0.9").status == 401) }
        let throttled = try call("GET", "/api/v1/folders", token: "zk_guess", from: "10.0.0.9")
        #expect(throttled.status == 429)
        #expect(Int(throttled.header("Retry-After") ?? "") ?? 0 > 0)
        // Another address is not held back, nor is a good token from the same one.
        #expect(try call("GET", "/api/v1/folders", token: "zk_guess", from: "10.0.0.10").status == 401)
        #expect(try call("GET", "/api/v1/folders", token: try token(home.owner), from: "10.0.0.9").status == 200)
    }

    @Test func unknownAddressesAndMethodsUnderTheAPIAreProblemsNotPages() throws {
        let owner = try token(home.owner)
        let missing = try call("GET", "/api/v1/nothing-here", token: owner)
        #expect(missing.status == 404)
        #expect(missing.header("Content-Type") == "application/problem+json")
        let method = try call("DELETE", "/api/v1/household", token: owner)
        #expect(method.status == 405)
        #expect(method.header("Allow") == "GET")
        #expect(try object(method)["type"] as? String == "/api#method_not_allowed")
    }

    @Test func refusedValuesComeBackAsALinePerFieldInTheMembersLanguageAndNothingIsSaved() throws {
        try home.accounts.updateProfile(memberId: home.memberId, name: "Ken", language: "ja")
        let ken = try token(home.member)
        let refused = try call(
            "POST", "/api/v1/folders/\(home.fridgeId.rawValue)/items", token: ken,
            json: ["items": [["name": "Eggs"], ["name": "Tofu", "due": "tomorrow"], ["name": ""]]])
        #expect(refused.status == 422)
        let problem = try object(refused)
        let errors = try #require(problem["errors"] as? [[String: Any]])
        #expect(errors.count == 1)
        #expect(errors[0]["draft"] as? Int == 2 && errors[0]["field"] as? String == "name")
        #expect((errors[0]["message"] as? String)?.contains("名前") == true)

        let due = try call(
            "POST", "/api/v1/folders/\(home.fridgeId.rawValue)/items", token: ken, json: ["items": [["name": "Eggs"], ["name": "Tofu", "due": "tomorrow"]]])
        let dueErrors = try #require(try object(due)["errors"] as? [[String: Any]])
        #expect(dueErrors.map { $0["draft"] as? Int } == [1])
        #expect(dueErrors.map { $0["field"] as? String } == ["due"])
        #expect(try home.items.slice(of: home.items.folder(home.fridgeId, in: try scope()), filter: ListFilter(), after: nil, limit: 100).total == 1)

        let tooMany = try call(
            "POST", "/api/v1/folders/\(home.fridgeId.rawValue)/items", token: ken, json: ["items": Array(repeating: ["name": "x"], count: 11)])
        #expect(tooMany.status == 400)
        let notJSON = try call("POST", "/api/v1/items/\(home.itemId.rawValue)/quantity", token: ken, json: ["delta": "lots"])
        #expect(notJSON.status == 400)
        #expect(try object(notJSON)["type"] as? String == "/api#invalid")
    }

    // MARK: - Writes

    @Test func aChangeWithAnOldVersionIsRefusedWithBothVersionsAndTheCurrentOneGoesThrough() throws {
        let owner = try token(home.owner)
        let read = try call("GET", milk, token: owner)
        let etag = try #require(read.header("ETag"))
        #expect(try call("POST", milk + "/quantity", token: owner, json: ["delta": 1]).status == 200)

        let stale = try call("PATCH", milk, token: owner, json: ["note": "from the door"], headers: [("If-Match", etag)])
        #expect(stale.status == 412)
        let problem = try object(stale)
        #expect(problem["sent_version"] as? String == etag)
        let current = try #require(problem["current"] as? [String: Any])
        #expect(current["quantity"] as? Double == 2)
        #expect(current["note"] as? String == "")

        let fresh = try call("GET", milk, token: owner).header("ETag")
        let saved = try call("PATCH", milk, token: owner, json: ["note": "from the door"], headers: [("If-Match", fresh ?? "")])
        #expect(saved.status == 200)
        #expect(try object(saved)["note"] as? String == "from the door")
        #expect(try object(saved)["quantity"] as? Double == 2)
        #expect(saved.header("ETag") != fresh)
    }

    @Test func aWriteSentTwiceWithOneKeyIsDoneOnceAndTheKeyServesNoOtherRequest() throws {
        let owner = try token(home.owner)
        let key = [("Idempotency-Key", "3f0c1d2e-aaaa-bbbb-cccc-000000000001")]
        let first = try call("POST", milk + "/quantity", token: owner, json: ["delta": 1], headers: key)
        let again = try call("POST", milk + "/quantity", token: owner, json: ["delta": 1], headers: key)
        #expect(first.status == 200 && again.status == 200)
        #expect(again.header("Idempotent-Replayed") == "true")
        #expect(try object(again)["quantity"] as? Double == 2)
        #expect(try home.items.item(home.itemId, in: try scope()).quantity == 2)

        let other = try call("POST", milk + "/quantity", token: owner, json: ["delta": 5], headers: key)
        #expect(other.status == 409)
        #expect(try object(other)["type"] as? String == "/api#key_reused")
        #expect(try call("POST", milk + "/quantity", token: owner, json: ["delta": 1], headers: [("Idempotency-Key", "no")]).status == 400)
        // Another token's key of the same text is its own.
        let second = try call("POST", milk + "/quantity", token: try token(home.owner), json: ["delta": 1], headers: key)
        #expect(second.header("Idempotent-Replayed") == nil)
        #expect(try home.items.item(home.itemId, in: try scope()).quantity == 3)
    }

    /// The server stopping between a write's commit and keeping its answer: the write marked its
    /// key done in its own transaction, so the retry is not done again; a write that never committed
    /// is done by the retry.
    @Test func aWriteWhoseAnswerWasLostWhenTheServerStoppedIsNotDoneAgain() throws {
        let member = try #require(try home.accounts.session(token: home.owner))
        let (secret, token) = try home.accounts.createToken(name: "crash", scope: "all", memberId: member.memberId)
        // A keyed request through the routes marks its key done with its write.
        #expect(try call("POST", milk + "/opened", token: secret, headers: [("Idempotency-Key", "opened-0001")]).status == 200)
        let marked = try home.database.writer.read { db in
            try String.fetchOne(db, sql: "SELECT applied_at FROM api_idempotency WHERE key = 'opened-0001'")
        }
        #expect(marked != nil)
        let requests = IdempotentRequests(database: home.database, clock: home.clock.wall)
        let headers = [("Idempotency-Key", "lost-answer-0001")]
        let step = try request("POST", milk + "/quantity", token: secret, json: ["delta": 1], headers: headers)
        // The request as the server began it: claimed, written, and then the server stopped.
        #expect(try requests.claim(token: token.id, key: "lost-answer-0001", fingerprint: APIRoutes.fingerprint(step)) == .claimed)
        try IdempotentRequests.Key.$current.withValue(.init(token: token.id, key: "lost-answer-0001")) {
            _ = try home.items.adjustQuantity(home.itemId, by: 1, in: member.household, by: member.memberId)
        }
        #expect(try home.items.item(home.itemId, in: member.household).quantity == 2)
        let meanwhile = home.app.respond(to: step)
        #expect(meanwhile.status == 409)
        #expect(try object(meanwhile)["type"] as? String == "/api#key_running")
        home.clock.advance(IdempotentRequests.abandonedAfter + 1)
        let retry = try call("POST", milk + "/quantity", token: secret, json: ["delta": 1], headers: headers + [("Accept-Language", "ja")])
        #expect(retry.status == 409)
        #expect(try object(retry)["type"] as? String == "/api#key_done_without_answer")
        #expect(try object(retry)["title"] as? String == "このリクエストは実行済みですが、その結果は失われました")
        #expect(try home.items.item(home.itemId, in: member.household).quantity == 2)

        // A write that failed rolled its mark back with it: after the wait, the retry does it.
        let other = try request("POST", milk + "/quantity", token: secret, json: ["delta": 1], headers: [("Idempotency-Key", "lost-answer-0002")])
        #expect(try requests.claim(token: token.id, key: "lost-answer-0002", fingerprint: APIRoutes.fingerprint(other)) == .claimed)
        #expect(throws: InventoryError.self) {
            try IdempotentRequests.Key.$current.withValue(.init(token: token.id, key: "lost-answer-0002")) {
                _ = try home.items.adjustQuantity(Item.ID(rawValue: 999_999), by: 1, in: member.household, by: member.memberId)
            }
        }
        home.clock.advance(IdempotentRequests.abandonedAfter + 1)
        let redone = home.app.respond(to: other)
        #expect(redone.status == 200)
        #expect(try home.items.item(home.itemId, in: member.household).quantity == 3)
    }

    @Test func aBatchIsSavedInOrderAndAListIsReadAPageAtATime() throws {
        let owner = try token(home.owner)
        for batch in 0..<12 {
            let drafts = (0..<10).map { ["name": String(format: "Item %03d", batch * 10 + $0), "quantity": 2, "unit": "g"] as [String: Any] }
            #expect(try call("POST", "/api/v1/folders/\(home.fridgeId.rawValue)/items", token: owner, json: ["items": drafts]).status == 201)
        }
        var names: [String] = []
        var cursor: String?
        var pages = 0
        repeat {
            let page = try object(
                try call("GET", "/api/v1/folders/\(home.fridgeId.rawValue)/items?limit=50" + (cursor.map { "&cursor=" + $0 } ?? ""), token: owner))
            #expect(page["total"] as? Int == 121)
            names += (page["items"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
            cursor = page["next_cursor"] as? String
            pages += 1
        } while cursor != nil && pages < 10
        #expect(pages == 3)
        #expect(names.count == 121 && Set(names).count == 121)
        let filtered = try object(try call("GET", "/api/v1/folders/\(home.fridgeId.rawValue)/items?q=item%20011", token: owner))
        #expect((filtered["items"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Item 011"])
        #expect(try call("GET", "/api/v1/folders/\(home.fridgeId.rawValue)/items?limit=0", token: owner).status == 400)
        #expect(try call("GET", "/api/v1/folders/\(home.fridgeId.rawValue)/items?cursor=o-5", token: owner).status == 400)
        #expect(try call("GET", "/api/v1/folders/\(home.fridgeId.rawValue)/items?cursor=kbm90LWpzb24", token: owner).status == 400)
        // A cursor that decodes but holds no place a list could have.
        let forged = "k" + Crypto.base64URL(Array(#"{"rank":5,"due":"","name":"x","id":1}"#.utf8))
        #expect(try call("GET", "/api/v1/folders/\(home.fridgeId.rawValue)/items?cursor=" + forged, token: owner).status == 400)
        #expect(try call("GET", "/api/v1/folders/\(home.fridgeId.rawValue)/items?cursor=k" + String(repeating: "A", count: 3000), token: owner).status == 400)
    }

    /// Two phones: one reads a list a page at a time while the other adds and removes rows before
    /// the page it is on. The next page starts right after the last row read: none twice, none skipped.
    @Test func aNextPageStartsAfterTheLastRowReadWhateverChangedBeforeIt() throws {
        let owner = try token(home.owner)
        let list = try #require(try home.items.folders(in: try scope(), kind: .shopping).first)
        let drafts = (0..<8).map { ["name": "Row \($0)", "urgent": $0 % 3 == 0] as [String: Any] }
        #expect(try call("POST", "/api/v1/folders/\(list.id.rawValue)/items", token: owner, json: ["items": drafts]).status == 201)
        let path = "/api/v1/folders/\(list.id.rawValue)/items?limit=3"
        let first = try object(try call("GET", path, token: owner))
        let firstNames = (first["items"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        #expect(firstNames == ["Row 0", "Row 3", "Row 6"], "urgent first, then by name")
        let cursor = try #require(first["next_cursor"] as? String)
        // Meanwhile: two urgent rows before the cursor, and the first row gone.
        let added = ["items": [["name": "Row 00", "urgent": true], ["name": "Row 01", "urgent": true]]]
        #expect(try call("POST", "/api/v1/folders/\(list.id.rawValue)/items", token: owner, json: added).status == 201)
        let rowZero = try #require((first["items"] as? [[String: Any]])?.first?["id"] as? Int)
        #expect(try call("DELETE", "/api/v1/items/\(rowZero)", token: owner).status == 204)
        var names: [String] = []
        var next: String? = cursor
        while let page = next {
            let answer = try object(try call("GET", path + "&cursor=" + page, token: owner))
            names += (answer["items"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
            next = answer["next_cursor"] as? String
        }
        #expect(names == ["Row 1", "Row 2", "Row 4", "Row 5", "Row 7"])

        // A stock list: by due date, none last, across that boundary and within both sides.
        let fridge = "/api/v1/folders/\(home.fridgeId.rawValue)/items"
        let stock: [[String: Any]] = [
            ["name": "A", "due": "2031-01-01"], ["name": "B", "due": "2031-01-01"], ["name": "C", "due": "2031-01-02"], ["name": "D"], ["name": "E"],
        ]
        #expect(try call("POST", fridge, token: owner, json: ["items": stock]).status == 201)
        var read: [String] = []
        var page: String? = nil
        repeat {
            let answer = try object(try call("GET", fridge + "?limit=2" + (page.map { "&cursor=" + $0 } ?? ""), token: owner))
            read += (answer["items"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
            page = answer["next_cursor"] as? String
            if read.count == 2 {
                // Before the cursor, meanwhile: an earlier date.
                #expect(try call("POST", fridge, token: owner, json: ["items": [["name": "AA", "due": "2030-12-31"]]]).status == 201)
            }
        } while page != nil && read.count < 20
        #expect(read == ["A", "B", "C", "D", "E", "Milk"])
    }

    @Test func theChangeFeedSaysWhatChangedSinceANumber() throws {
        let owner = try token(home.owner)
        let start = try object(try call("GET", "/api/v1/changes?since=0", token: owner))
        let latest = try #require(start["latest"] as? Int)
        #expect(try call("POST", milk + "/quantity", token: owner, json: ["delta": 1]).status == 200)
        let next = try object(try call("GET", "/api/v1/changes?since=\(latest)", token: owner))
        let changes = try #require(next["changes"] as? [[String: Any]])
        #expect(changes.count == 1)
        #expect(changes[0]["entity"] as? String == "item" && changes[0]["id"] as? Int == Int(home.itemId.rawValue))
        #expect(next["reset"] as? Bool == false)
        #expect(try object(try call("GET", "/api/v1/changes?since=999999", token: owner))["reset"] as? Bool == true)
        #expect(try call("GET", "/api/v1/changes?since=-1", token: owner).status == 400)
    }

    // MARK: - The document

    @Test func theServedRoutesAreTheDocumentsOperations() throws {
        // The MCP endpoint speaks JSON-RPC, which the document does not describe (MCPTests hold it).
        let served = Set(
            home.app.router.routes.filter { $0.handler.access == .token && $0.pattern != MCPEndpoint.path }.map { "\($0.method) \($0.pattern)" })
        let documented = Set(APIOperation.all.map { "\($0.method) /api/v1\($0.path)" })
        #expect(documented.count == 26)
        #expect(served == documented)
        let document = get(home.app, "/api/v1/openapi.json")
        #expect(document.status == 200)
        #expect(document.header("Content-Type") == "application/json")
        #expect(try object(document)["openapi"] as? String == "3.1.0")
        let page = get(home.app, "/api", language: "ja")
        #expect(page.status == 200)
        #expect(page.text.contains("Zaiko の API"))
        #expect(page.text.contains(#"id="version_mismatch""#))
        // Every operation is summed up on the page in the reader's language (TextFamilyTests holds
        // every language to it); the English is the document's own words.
        let en = try #require(Localizations.embedded.languages.first { $0.code == "en" })
        let ja = try #require(Localizations.embedded.languages.first { $0.code == "ja" })
        for operation in APIOperation.all {
            #expect(en[.apiOperation, operation.id] == operation.summary, "\(operation.id): en.json and the document differ")
            #expect(page.text.contains(ja[.apiOperation, operation.id]))
        }
    }

    // MARK: - Who may do what

    /// A request for each operation of the document, on Home's fridge and its milk (a stock list),
    /// and the kinds of list it writes; the matrix fails for an operation that has none here.
    func example(_ operation: APIOperation, bread: Item.ID, list: Folder.ID) -> (path: String, json: Any?, kinds: Set<FolderKind>)? {
        let bodies: [String: Any?] = [
            "getHousehold": nil, "listFolders": nil, "listItems": nil, "getItem": nil, "markOpened": nil, "listChanges": nil,
            "createItems": ["items": [["name": "Eggs"]]], "updateItem": ["note": "checked"], "adjustQuantity": ["delta": 1],
            "setInBasket": ["in_basket": true], "getSummary": nil, "listDue": nil, "trashItem": nil, "streamEvents": nil, "restoreItem": nil,
            "buyItem": ["folder_id": home.fridgeId.rawValue, "quantity": 2], "buyAgain": ["folder_id": list.rawValue],
            "getProduct": nil, "listKeepRules": nil, "listUseSoon": nil, "getCalendar": nil, "listMeals": nil, "listRecipes": nil,
            "getRecipe": nil, "cookRecipe": ["with_what_we_have": true], "addMissingToList": ["folder_id": list.rawValue],
        ]
        guard let json = bodies[operation.id], let owner = try? home.accounts.session(token: home.owner) else { return nil }
        // Each holder tries a new row: one that went to the trash (or came back, or was bought) is not the next one's.
        func newRow(on folder: Folder.ID) -> Item.ID? {
            var draft = ItemInput()
            draft.name = "Old bread"
            return try? home.items.register([draft], into: folder, in: owner.household, by: owner.memberId, timeZone: .gmt).first
        }
        let recipe = "/api/v1/recipes/\(home.recipeId.rawValue)"
        switch operation.id {
        case "trashItem":
            return newRow(on: home.fridgeId).map { ("/api/v1/items/\($0.rawValue)", nil, [.stock]) }
        case "restoreItem":
            guard let id = newRow(on: home.fridgeId), (try? home.items.trash([id], in: owner.household, by: owner.memberId)) != nil else { return nil }
            return ("/api/v1/items/\(id.rawValue)/restore", nil, [.stock])
        case "buyItem":
            return newRow(on: list).map { ("/api/v1/items/\($0.rawValue)/bought", json, [.shopping, .stock]) }
        case "buyAgain": return ("\(milk)/buy-again", json, [.shopping])
        case "listDue": return ("/api/v1/due?from=2026-01-01&to=2026-12-31", nil, [])
        case "listMeals": return ("/api/v1/meals?from=2026-01-01&to=2026-01-31", nil, [])
        case "getCalendar": return ("/api/v1/calendar?month=2026-11", nil, [])
        case "getProduct": return ("/api/v1/products/by-barcode/4901234567894", nil, [])
        case "getRecipe": return (recipe + "?servings=4", nil, [])
        case "cookRecipe":
            // Milk enough for every holder's cook.
            _ = try? home.items.adjustQuantity(home.itemId, by: 1, in: owner.household, by: owner.memberId)
            return (recipe + "/cook", json, [.stock])
        case "addMissingToList": return (recipe + "/missing", json, [.shopping])
        default: break
        }
        // The basket is a shopping list's: that operation is tried on a row of one.
        let kind: FolderKind = operation.id == "setInBasket" ? .shopping : .stock
        let path = operation.path.replacingOccurrences(of: "{folderId}", with: "\(home.fridgeId.rawValue)")
            .replacingOccurrences(of: "{itemId}", with: "\((kind == .shopping ? bread : home.itemId).rawValue)")
        return ("/api/v1" + path + (operation.id == "listChanges" ? "?since=0" : ""), json, operation.scope == "read" ? [] : [kind])
    }

    /// Every operation of the document × every kind of token × the other household: reads for every
    /// member of Home; writes to a stock list for tokens whose scope covers stock and whose member
    /// may write; nothing of Home for Grandparents (their own household and lists, but not Home's).
    @Test func everyOperationAnswersEachRoleAndScopeAsTheMatrixSays() throws {
        let holders: [(name: String, token: String, writes: Set<FolderKind>, otherHousehold: Bool)] = [
            ("owner all", try token(home.owner, .all), [.stock, .shopping], false),
            ("member stock", try token(home.member, .stock), [.stock], false),
            ("member shopping", try token(home.member, .shopping), [.shopping], false),
            ("member read", try token(home.member, .read), [], false),
            ("viewer all", try token(home.viewer, .all), [], false),
            ("grandparents all", try token(home.otherOwner, .all), [.stock, .shopping], true),
        ]
        let list = try #require(try home.items.folders(in: try scope(), kind: .shopping).first)
        var draft = ItemInput()
        draft.name = "Bread"
        let owner = try #require(try home.accounts.session(token: home.owner))
        let bread = try home.items.register([draft], into: list.id, in: try scope(), by: owner.memberId, timeZone: .gmt)[0]
        #expect(!APIOperation.all.isEmpty)
        for operation in APIOperation.all {
            for holder in holders {
                let request = try #require(example(operation, bread: bread, list: list.id), "no example request for \(operation.id)")
                let answer = try call(operation.method, request.path, token: holder.token, json: request.json)
                let expected: Set<Int>
                let aboutHome = operation.path.contains("{")
                if holder.otherHousehold {
                    expected = aboutHome ? [404] : [200]
                } else if operation.scope == "read" {
                    expected = [200]
                } else {
                    expected = request.kinds.isSubset(of: holder.writes) ? [200, 201, 204] : [403]
                }
                #expect(expected.contains(answer.status), "\(operation.id) as \(holder.name): \(answer.status) \(answer.text)")
                if answer.status >= 400 { #expect(answer.header("Content-Type") == "application/problem+json") }
            }
        }
    }

    @Test func aShoppingTokenChangesShoppingListsOnly() throws {
        let shopping = try token(home.member, .shopping)
        let list = try #require(try home.items.folders(in: try scope(), kind: .shopping).first)
        let added = try call("POST", "/api/v1/folders/\(list.id.rawValue)/items", token: shopping, json: ["items": [["name": "Bread", "urgent": true]]])
        #expect(added.status == 201)
        let bread = try #require((try object(added)["items"] as? [[String: Any]])?.first)
        #expect(bread["urgent"] as? Bool == true)
        #expect(bread["due"] == nil)
        let id = try #require(bread["id"] as? Int)
        let basket = try call("PUT", "/api/v1/items/\(id)/basket", token: shopping, json: ["in_basket": true])
        #expect(basket.status == 200)
        #expect(try object(basket)["in_basket"] as? Bool == true)
        // Moving it to a stock list needs the stock scope as well.
        let move = try call("PATCH", "/api/v1/items/\(id)", token: shopping, json: ["folder_id": home.fridgeId.rawValue])
        #expect(move.status == 403)
        #expect(try object(move)["type"] as? String == "/api#forbidden_scope")
        // Marking a shopping row opened is refused beside the field that makes it wrong.
        let opened = try call("POST", "/api/v1/items/\(id)/opened", token: try token(home.owner), json: nil)
        #expect(opened.status == 422)
    }

    @Test func theSummaryCountsWhatIsDueAndTheCalendarReadsARangeOfDays() throws {
        let owner = try token(home.owner)
        let today = CalendarDay.today(in: .gmt, now: home.clock.wall.now())
        let drafts: [[String: Any]] = [
            ["name": "Old yoghurt", "due": today.adding(days: -2).description], ["name": "Tofu", "due": today.description],
            ["name": "Ham", "due": today.adding(days: 1).description], ["name": "Rice", "due": today.adding(days: 60).description],
        ]
        #expect(try call("POST", "/api/v1/folders/\(home.fridgeId.rawValue)/items", token: owner, json: ["items": drafts]).status == 201)
        let summary = try object(try call("GET", "/api/v1/summary", token: owner))
        #expect(summary["expired"] as? Int == 1 && summary["due_today"] as? Int == 1 && summary["due_soon"] as? Int == 1)
        #expect(summary["today"] as? String == today.description)
        let range = "from=\(today.description)&to=\(today.adding(days: 60).description)"
        let due = try object(try call("GET", "/api/v1/due?" + range, token: owner))
        let names = (due["items"] as? [[String: Any]])?.compactMap { ($0["item"] as? [String: Any])?["name"] as? String }
        #expect(names == ["Tofu", "Ham", "Rice"])
        #expect(try call("GET", "/api/v1/due?from=\(today.description)&to=\(today.adding(days: 400).description)", token: owner).status == 400)
        #expect(try call("GET", "/api/v1/due?from=tomorrow&to=\(today.description)", token: owner).status == 400)
    }

    @Test func anItemPutInTheTrashComesBackWithItsVersionMoved() async throws {
        let owner = try token(home.owner)
        #expect(try call("DELETE", milk, token: owner).status == 204)
        #expect(try call("GET", milk, token: owner).status == 404)
        let back = try call("POST", milk + "/restore", token: owner)
        #expect(back.status == 200)
        #expect(try object(back)["name"] as? String == "Milk")
        #expect(back.header("ETag") == "\"3\"")
        // An item not in the trash has nothing to come back from.
        #expect(try call("POST", milk + "/restore", token: owner).status == 404)
        #expect(try call("GET", milk, token: owner).status == 200)
    }
}
