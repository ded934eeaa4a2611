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

@Suite struct RoutePrecedenceTests {
    /// Literal segments beat parameters, whichever route was added first.
    @Test func literalSegmentsBeatParametersAddedBeforeThem() {
        var router = Router<String>()
        router.add("GET", "/{page}", "page")
        router.add("GET", "/items", "items")
        router.add("POST", "/items", "save")
        router.add("GET", "/items/{id}", "item")
        router.add("GET", "/{any}/{id}", "any")
        router.add("GET", "/items/new", "new")
        guard case .found("items", [:]) = router.match(method: "GET", path: "/items") else {
            Issue.record("the parameter route added first won over the literal one")
            return
        }
        guard case .found("page", ["page": "folders"]) = router.match(method: "GET", path: "/folders") else {
            Issue.record("the parameter route did not take the other paths")
            return
        }
        guard case .found("save", _) = router.match(method: "POST", path: "/items") else {
            Issue.record("POST not matched")
            return
        }
        guard case .found("new", [:]) = router.match(method: "GET", path: "/items/new") else {
            Issue.record("the literal route added last did not win")
            return
        }
        guard case .found("item", ["id": "7"]) = router.match(method: "GET", path: "/items/7") else {
            Issue.record("the literal first segment did not win")
            return
        }
        guard case .found("any", ["any": "folders", "id": "7"]) = router.match(method: "GET", path: "//folders/7/") else {
            Issue.record("a path with empty segments did not reach the parameter route")
            return
        }
        #expect(router.resolve(method: "DELETE", path: "/items").pattern == "/items")
        guard case .methodNotAllowed(let allowed) = router.match(method: "DELETE", path: "/items") else {
            Issue.record("expected 405")
            return
        }
        #expect(allowed == ["GET", "POST", "GET"])
    }

    /// A more specific route without the request's method leaves it to a less specific one that has it.
    @Test func aRouteWithoutTheMethodLeavesThePathToTheNextThatHasIt() {
        var router = Router<String>()
        router.add("POST", "/recipes/{id}", "save")
        router.add("GET", "/recipes/new", "new")
        guard case .found("save", ["id": "new"]) = router.match(method: "POST", path: "/recipes/new") else {
            Issue.record("POST did not reach the parameter route")
            return
        }
        guard case .found("new", [:]) = router.match(method: "HEAD", path: "/recipes/new") else {
            Issue.record("HEAD did not reach the literal GET route")
            return
        }
    }

    /// Every order of the same routes gives the same answers.
    @Test func theSameRoutesInEveryOrderResolveTheSame() {
        let routes = [
            ("GET", "/{page}"), ("GET", "/items/{id}"), ("GET", "/items/new"), ("POST", "/items/{id}"),
            ("GET", "/calendar/{token}.ics"), ("GET", "/{section}/{rest...}"),
        ]
        let requests = [
            ("GET", "/items"), ("GET", "/items/new"), ("GET", "/items/5"), ("POST", "/items/new"), ("PUT", "/items/new"),
            ("GET", "/calendar/abc.ics"), ("GET", "/calendar/2026-11"), ("GET", "/a/b/c"), ("HEAD", "/items/new"),
        ]
        func answers(_ order: [(String, String)]) -> [String] {
            var router = Router<String>()
            for (method, pattern) in order { router.add(method, pattern, method + " " + pattern) }
            return requests.map { method, path in
                let (match, pattern) = router.resolve(method: method, path: path)
                switch match {
                case .found(let handler, let parameters):
                    return handler + " " + parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "&")
                case .methodNotAllowed(let allowed):
                    return "405 \(pattern ?? "") \(allowed.sorted())"
                case .notFound:
                    return "404"
                }
            }
        }
        let expected = [
            "GET /{page} page=items", "GET /items/new ", "GET /items/{id} id=5", "POST /items/{id} id=new",
            "405 /items/new [\"GET\", \"GET\", \"GET\", \"POST\"]", "GET /calendar/{token}.ics token=abc",
            "GET /{section}/{rest...} rest=2026-11&section=calendar", "GET /{section}/{rest...} rest=b/c&section=a", "GET /items/new ",
        ]
        var orders = 0
        for order in permutations(routes) {
            #expect(answers(order) == expected)
            orders += 1
        }
        #expect(orders == 720)
    }

    func permutations<T>(_ values: [T]) -> [[T]] {
        guard values.count > 1 else { return [values] }
        return values.indices.flatMap { index in
            var rest = values
            let first = rest.remove(at: index)
            return permutations(rest).map { [first] + $0 }
        }
    }
}

@Suite struct HTTPDateTests {
    @Test func formatsAndParsesIMFFixdate() {
        #expect(HTTPDate.string(fromUnixSeconds: 784111777) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.unixSeconds(from: "Sun, 06 Nov 1994 08:49:37 GMT") == 784111777)
        #expect(HTTPDate.unixSeconds(from: "yesterday") == nil)
    }
}
