import Foundation
import HTTPServer
import Inventory
import Logging
import Testing
import Web

/// DNS rebinding: a page on `evil.example`, made to resolve to the server, must not reach the
/// setup or sign-in pages. Only the server's own names and addresses (and `--public-name`s) are
/// answered, and a form's Origin must be one of them.
@Suite struct HostAllowlistTests {
    static func hosts() -> HostAllowlist {
        let hosts = HostAllowlist(ownNames: ["kura", "kura.local", "localhost", "127.0.0.1", "192.168.1.20", "::1"], publicNames: ["zaiko.example.net"])
        hosts.listening(on: [8080, 8443])
        return hosts
    }

    static func app(setupCode: String? = nil) async throws -> App {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        var options = AppOptions(setupCode: setupCode)
        options.hosts = hosts()
        return try await App(database: try AppDatabase.inMemory(), resources: repositoryResources, logger: logger, options: options)
    }

    static func request(_ app: App, _ method: String, _ path: String, host: String, origin: String? = nil, form: [(String, String)] = []) -> Response {
        var headers = [("Host", host), ("Cookie", "zaiko_csrf=t")]
        if let origin { headers.append(("Origin", origin)) }
        let request = Request(method: method, path: path, headers: Headers(headers), form: Parameters(form + [("_csrf", "t")]), clientAddress: "192.168.1.30")
        if case .answer(let early) = app.admit(request) { return early }
        return app.respond(to: request)
    }

    @Test func theServersOwnNamesAndAddressesAreAnsweredOnItsPorts() {
        let hosts = Self.hosts()
        for host in ["192.168.1.20:8080", "kura.local:8443", "KURA:8080", "localhost", "[::1]:8080", "zaiko.example.net", "zaiko.example.net:443"] {
            #expect(hosts.allows(host: host), "\(host)")
        }
        for host in [
            "evil.example", "evil.example:8080", "192.168.1.20:9999", "192.168.1.21:8080", "", "kura.local:x", "a@kura:8080", "kura:8080:8080", "kura/x:8080",
            "kura:",
        ] {
            #expect(!hosts.allows(host: host), "\(host)")
        }
        #expect(hosts.allows(origin: "http://192.168.1.20:8080"))
        #expect(!hosts.allows(origin: "http://evil.example:8080"))
    }

    @Test func aRebindingHostIsRefusedOnEveryAnonymousPage() async throws {
        let app = try await Self.app(setupCode: "ABCD-EFGH-JKLM")
        let evil = "evil.example:8080"
        for (method, path) in [("GET", "/"), ("GET", "/setup"), ("POST", "/setup"), ("GET", "/login"), ("POST", "/login")] {
            let response = Self.request(app, method, path, host: evil, origin: "http://\(evil)", form: [("login", "a"), ("password", "b")])
            #expect(response.status == 421, "\(method) \(path)")
            #expect(response.text.contains("--public-name"))
        }
        // The server's own address is served (no household yet: on to the setup).
        #expect(Self.request(app, "GET", "/login", host: "192.168.1.20:8080").status == 303)
        #expect(Self.request(app, "GET", "/setup", host: "192.168.1.20:8080").status == 200)
        #expect(Self.request(app, "GET", "/setup", host: "zaiko.example.net").status == 200)
        // A health check may use any name.
        #expect(Self.request(app, "GET", "/healthz", host: evil).status == 200)
    }

    @Test func aFormsOriginMustBeOneOfTheServersNames() async throws {
        let app = try await Self.app(setupCode: "ABCD-EFGH-JKLM")
        let form = [("setup_code", "WRONG"), ("household", "Home"), ("name", "A"), ("login", "aki"), ("password", "x"), ("password_confirm", "x")]
        // An allowed Host with a foreign Origin: the CSRF check refuses it.
        let foreign = Self.request(app, "POST", "/setup", host: "192.168.1.20:8080", origin: "http://evil.example:8080", form: form)
        #expect(foreign.status == 403)
        // Another of the server's names as Origin is the same server.
        let own = Self.request(app, "POST", "/setup", host: "192.168.1.20:8080", origin: "http://kura.local:8080", form: form)
        #expect(own.status != 403 && own.status != 421)
    }
}
