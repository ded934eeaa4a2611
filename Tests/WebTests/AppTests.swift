import Foundation
import HTTPServer
import Testing
import Web

@Suite("The application's responses")
struct AppTests {
    @Test func healthzAnswersOk() async throws {
        let app = try await makeApp()
        let response = get(app, "/healthz")
        #expect(response.status == 200)
        #expect(response.text == "ok")
    }

    @Test func unknownPathsGetAnHTML404InTheReadersLanguage() async throws {
        let app = try await makeApp()
        let english = get(app, "/no/such/page")
        #expect(english.status == 404)
        #expect(english.header("Content-Type") == "text/html; charset=utf-8")
        #expect(english.text.contains("Page not found"))
        #expect(english.text.contains("<html lang=\"en\">"))

        let japanese = get(app, "/no/such/page", language: "ja-JP,ja;q=0.9,en;q=0.5")
        #expect(japanese.status == 404)
        #expect(japanese.text.contains("ページが見つかりません"))
        #expect(japanese.text.contains("<html lang=\"ja\">"))
    }

    @Test func aWrongMethodGets405WithAllow() async throws {
        let app = try await makeApp()
        let response = app.respond(to: Request(method: "POST", path: "/healthz"))
        #expect(response.status == 405)
        #expect(response.header("Allow") == "GET")
        #expect(response.text.contains("Not possible here"))
    }

    @Test(arguments: [400, 413, 500])
    func refusedRequestsGetTheirErrorPage(status: Int) async throws {
        let app = try await makeApp()
        let response = app.respond(toRefused: Request(method: "POST", path: "/", headers: Headers([("Accept-Language", "ja")])), status: status)
        #expect(response.status == status)
        #expect(response.text.contains("<h1 id=\"error-heading\">"))
        #expect(response.text.contains("lang=\"ja\""))
    }

    @Test(arguments: ["/", "/healthz", "/static/css/app.css", "/missing"])
    func everyResponseCarriesTheSecurityHeaders(path: String) async throws {
        let app = try await makeApp()
        let response = get(app, path)
        let policy = try #require(response.header("Content-Security-Policy"))
        #expect(policy.contains("script-src 'self'"))
        #expect(!policy.contains("unsafe-inline"))
        #expect(policy.contains("frame-ancestors 'none'"))
        #expect(response.header("X-Content-Type-Options") == "nosniff")
        #expect(response.header("Referrer-Policy") == "same-origin")
    }

    @Test func servesPublicFilesUnderStatic() async throws {
        let app = try await makeApp()
        let response = get(app, "/static/css/app.css")
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "text/css; charset=utf-8")
        #expect(response.header("ETag") != nil)
        if case .file(let descriptor, _) = response.body { close(descriptor) }
    }
}

@Suite struct LanguageNegotiationTests {
    @Test(
        arguments: [
            (nil, "en"), ("ja", "ja"), ("ja-JP", "ja"), ("fr-FR,fr;q=0.9", "en"),
            ("fr;q=0.9,ja;q=0.8,en;q=0.7", "ja"), ("en;q=0.5,ja;q=0.9", "ja"), ("ja;q=0,en", "en"), ("*", "en"),
        ] as [(String?, String)])
    func picksTheBestCatalog(header: String?, expected: String) async throws {
        let app = try await makeApp()
        #expect(app.renderer.localizations.negotiate(header).code == expected)
    }
}
