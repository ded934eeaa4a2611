import Foundation
import HTTPServer
import Inventory
import TestSupport
import Testing
import Web

/// One App behind two live listeners, HTTP and HTTPS (a test CA made with openssl): over HTTPS
/// every cookie is Secure and `__Host-` prefixed, over HTTP they stay as they were, and neither
/// listener takes the other's session cookie.
@Suite("Cookies over HTTPS")
struct HTTPSCookieTests {
    final class Listeners {
        let plain: Server
        let secure: Server
        let certificates: TestCertificates
        var http: String { "http://127.0.0.1:\(plain.port)" }
        var https: String { "https://127.0.0.1:\(secure.port)" }

        init(_ app: App) throws {
            certificates = try TestCertificates()
            let folder = certificates.folder.url
            plain = Server(configuration: ServerConfiguration(host: "127.0.0.1", port: 0, threads: 2, uploadDirectory: folder), responder: app)
            secure = Server(
                configuration: ServerConfiguration(
                    host: "127.0.0.1", port: 0, threads: 2, uploadDirectory: folder,
                    tls: TLSListener(certificateFile: certificates.chain, keyFile: certificates.key)),
                responder: app)
            try plain.start()
            try secure.start()
        }

        deinit {
            plain.shutdown(grace: .seconds(1))
            secure.shutdown(grace: .seconds(1))
            certificates.folder.remove()
        }

        /// Signs in as the fixture's owner through the login form; returns the Set-Cookie values.
        func signIn(at base: String) throws -> [String] {
            let page = try certificates.get(base + "/login")
            let csrfCookie = try #require(page.setCookies.first { $0.contains("zaiko_csrf=") })
            let pair = String(csrfCookie.prefix { $0 != ";" })
            let token = try #require(page.body.firstMatch(of: /name="_csrf" value="([^"]+)"/)?.1)
            let reply = try certificates.get(
                base + "/login", headers: ["Cookie: \(pair)"], form: [("_csrf", String(token)), ("login", "aki"), ("password", Fixture.password)])
            #expect(reply.status == 303)
            return reply.setCookies
        }
    }

    static func value(of name: String, in cookies: [String]) -> String? {
        cookies.first { $0.hasPrefix(name + "=") }.map { String($0.dropFirst(name.count + 1).prefix { $0 != ";" }) }
    }

    @Test func overHTTPSEveryCookieIsSecureAndHostPrefixed() async throws {
        let fixture = try await HouseholdFixture()
        let listeners = try Listeners(fixture.app)
        let page = try listeners.certificates.get(listeners.https + "/login")
        #expect(page.status == 200)
        let csrf = try #require(page.setCookies.first)
        #expect(csrf.hasPrefix("__Host-zaiko_csrf="))
        #expect(csrf.contains("; Path=/") && csrf.contains("; Secure") && !csrf.contains("Domain"))

        let signedIn = try listeners.signIn(at: listeners.https)
        let session = try #require(signedIn.first { $0.hasPrefix("__Host-zaiko_session=") })
        #expect(session.contains("; Path=/") && session.contains("; Secure") && session.contains("; HttpOnly") && !session.contains("Domain"))
        let token = try #require(Self.value(of: "__Host-zaiko_session", in: signedIn))
        #expect(try listeners.certificates.get(listeners.https + "/", headers: ["Cookie: __Host-zaiko_session=\(token)"]).status == 200)
        // The same token under the HTTP name is no session over HTTPS…
        #expect(try listeners.certificates.get(listeners.https + "/", headers: ["Cookie: zaiko_session=\(token)"]).status == 303)
        // …and the HTTPS name is no session over HTTP.
        #expect(try listeners.certificates.get(listeners.http + "/", headers: ["Cookie: __Host-zaiko_session=\(token)"]).status == 303)
    }

    @Test func linksMadeOverHTTPSSayHTTPS() async throws {
        let fixture = try await HouseholdFixture()
        let listeners = try Listeners(fixture.app)
        let token = try #require(Self.value(of: "__Host-zaiko_session", in: try listeners.signIn(at: listeners.https)))
        let cookie = "Cookie: __Host-zaiko_session=\(token)"
        let settings = try listeners.certificates.get(listeners.https + "/settings", headers: [cookie])
        let csrf = try #require(settings.body.firstMatch(of: /name="_csrf" value="([^"]+)"/)?.1)
        let made = try listeners.certificates.get(
            listeners.https + "/settings/invitations", headers: [cookie], form: [("_csrf", String(csrf)), ("role", "member")])
        #expect(made.status == 200)
        #expect(made.body.contains("https://127.0.0.1:\(listeners.secure.port)/join/"))
        #expect(!made.body.contains("http://127.0.0.1:\(listeners.secure.port)/join/"))
    }

    @Test func overHTTPCookiesStayAsTheyWere() async throws {
        let fixture = try await HouseholdFixture()
        let listeners = try Listeners(fixture.app)
        let page = try listeners.certificates.get(listeners.http + "/login")
        let csrf = try #require(page.setCookies.first)
        #expect(csrf.hasPrefix("zaiko_csrf=") && !csrf.contains("Secure"))
        let signedIn = try listeners.signIn(at: listeners.http)
        let session = try #require(signedIn.first { $0.hasPrefix("zaiko_session=") })
        #expect(!session.contains("Secure"))
        let token = try #require(Self.value(of: "zaiko_session", in: signedIn))
        #expect(try listeners.certificates.get(listeners.http + "/", headers: ["Cookie: zaiko_session=\(token)"]).status == 200)
    }

    @Test func behindAnHTTPSProxyTheFlagStillMarksHTTPCookiesSecure() async throws {
        let fixture = try await HouseholdFixture(secureCookies: true)
        let listeners = try Listeners(fixture.app)
        let csrf = try #require(try listeners.certificates.get(listeners.http + "/login").setCookies.first)
        #expect(csrf.hasPrefix("zaiko_csrf=") && csrf.contains("; Secure"))
    }
}
