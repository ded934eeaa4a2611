import HTTPServer
import Testing

@Suite struct RouterTests {
    func router() -> Router<String> {
        var router = Router<String>()
        router.add("GET", "/", "home")
        router.add("GET", "/items/{id}", "item")
        router.add("POST", "/items/{id}", "save")
        router.add("GET", "/items/{id}/edit", "edit")
        router.add("GET", "/static/{path...}", "static")
        return router
    }

    @Test func matchesLiteralAndParameterSegments() {
        guard case .found(let handler, let parameters) = router().match(method: "GET", path: "/items/42") else {
            Issue.record("no match")
            return
        }
        #expect(handler == "item")
        #expect(parameters == ["id": "42"])
        guard case .found("edit", _) = router().match(method: "GET", path: "/items/42/edit") else {
            Issue.record("edit not matched")
            return
        }
    }

    @Test func capturesTheRestOfThePath() {
        guard case .found("static", let parameters) = router().match(method: "GET", path: "/static/css/app.css") else {
            Issue.record("no match")
            return
        }
        #expect(parameters["path"] == "css/app.css")
    }

    @Test func bindsAParameterBeforeAFixedEnding() {
        var router = Router<String>()
        router.add("GET", "/calendar", "month")
        router.add("GET", "/calendar/{token}.ics", "feed")
        guard case .found("feed", let parameters) = router.match(method: "GET", path: "/calendar/abc-123.ics") else {
            Issue.record("no match")
            return
        }
        #expect(parameters == ["token": "abc-123"])
        guard case .notFound = router.match(method: "GET", path: "/calendar/2026-11") else {
            Issue.record("matched without .ics")
            return
        }
        guard case .notFound = router.match(method: "GET", path: "/calendar/.ics") else {
            Issue.record("matched an empty token")
            return
        }
        guard case .found("month", _) = router.match(method: "GET", path: "/calendar") else {
            Issue.record("month not matched")
            return
        }
    }

    @Test func reportsMethodNotAllowedWithTheAllowedMethods() {
        guard case .methodNotAllowed(let allowed) = router().match(method: "DELETE", path: "/items/1") else {
            Issue.record("expected 405")
            return
        }
        #expect(Set(allowed) == ["GET", "POST"])
    }

    @Test func answersHeadWithTheGetRoute() {
        guard case .found("home", _) = router().match(method: "HEAD", path: "/") else {
            Issue.record("HEAD not matched")
            return
        }
    }

    @Test func doesNotMatchLongerOrShorterPaths() {
        guard case .notFound = router().match(method: "GET", path: "/items") else {
            Issue.record("matched /items")
            return
        }
        guard case .notFound = router().match(method: "GET", path: "/items/1/edit/x") else {
            Issue.record("matched too long")
            return
        }
        guard case .notFound = router().match(method: "GET", path: "/static") else {
            Issue.record("matched empty rest")
            return
        }
    }
}

@Suite struct RouteOrderTests {
    /// Routes are indexed by their first segment; the order they were added still decides.
    @Test func triesRoutesInTheOrderTheyWereAdded() {
        var router = Router<String>()
        router.add("GET", "/{page}", "page")
        router.add("GET", "/items", "items")
        router.add("POST", "/items", "save")
        router.add("GET", "/items/{id}", "item")
        router.add("GET", "/{any}/{id}", "any")
        guard case .found("page", ["page": "items"]) = router.match(method: "GET", path: "/items") else {
            Issue.record("the earlier parameter route did not win")
            return
        }
        guard case .found("save", _) = router.match(method: "POST", path: "/items") else {
            Issue.record("POST not matched")
            return
        }
        guard case .found("item", ["id": "7"]) = router.match(method: "GET", path: "/items/7") else {
            Issue.record("the literal route added first did not win")
            return
        }
        guard case .found("any", ["any": "folders", "id": "7"]) = router.match(method: "GET", path: "//folders/7/") else {
            Issue.record("a path with empty segments did not reach the parameter route")
            return
        }
        #expect(router.resolve(method: "DELETE", path: "/items").pattern == "/{page}")
        guard case .methodNotAllowed(let allowed) = router.match(method: "DELETE", path: "/items") else {
            Issue.record("expected 405")
            return
        }
        #expect(allowed == ["GET", "GET", "POST"])
    }
}

@Suite struct HTTPDateTests {
    @Test func formatsAndParsesIMFFixdate() {
        #expect(HTTPDate.string(fromUnixSeconds: 784111777) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.unixSeconds(from: "Sun, 06 Nov 1994 08:49:37 GMT") == 784111777)
        #expect(HTTPDate.unixSeconds(from: "yesterday") == nil)
    }
}
