import Foundation
import HTTPServer
import Inventory
import Logging
import TestSupport
import Testing
import Web

/// The /tls page: the local CA's certificate to download (PEM, DER, iPhone profile), its
/// fingerprint, the HTTPS addresses and the steps, open to anyone; the links to it from the login
/// and account pages only over HTTP.
@Suite("The /tls page hands out the local CA")
struct TLSPageTests {
    /// Two real CA certificates made with `openssl req -x509` (P-256, CA:TRUE), and what openssl
    /// says of them (`openssl x509 -noout -fingerprint -sha256`).
    static let first = """
        -----BEGIN CERTIFICATE-----
        MIIBmTCCAT+gAwIBAgIUOW7R7xDb57XWXTKKyaYniHSCaCUwCgYIKoZIzj0EAwIw
        GjEYMBYGA1UEAwwPWmFpa28gYXQgdGVzdC1hMB4XDTI2MTEyMjIxNDEwOVoXDTM2
        MTExOTIxNDEwOVowGjEYMBYGA1UEAwwPWmFpa28gYXQgdGVzdC1hMFkwEwYHKoZI
        zj0CAQYIKoZIzj0DAQcDQgAE4iGI/N1YmXmT0oDc776p3JOPtxXdBY0d1FhO2rLU
        9zzyK2mAs2hTC1uNy+sWPGSoxK6WCyRRWNO7VEqirPBn/aNjMGEwHQYDVR0OBBYE
        FAdUZEckNMaKlLlbEMHP3Zk9jnWjMB8GA1UdIwQYMBaAFAdUZEckNMaKlLlbEMHP
        3Zk9jnWjMA8GA1UdEwEB/wQFMAMBAf8wDgYDVR0PAQH/BAQDAgEGMAoGCCqGSM49
        BAMCA0gAMEUCIQCA+8izFaXjkGPLQj3QVK5h6lan+NO05T1JgT2j9rZvUAIgf8Gg
        9Gacl06cCiuW6N/rao/Vnnu/k63mFIJUtVc2wSU=
        -----END CERTIFICATE-----

        """
    static let firstFingerprint = "33:74:60:0D:EE:7B:F5:17:7E:6D:A0:59:E5:9E:6B:DB:6A:FE:58:28:E8:1B:21:56:7B:C2:0E:E0:B1:39:7A:87"
    static let second = """
        -----BEGIN CERTIFICATE-----
        MIIBmTCCAT+gAwIBAgIUEqNZuAowjGVvPhp2MmM2GETAK30wCgYIKoZIzj0EAwIw
        GjEYMBYGA1UEAwwPWmFpa28gYXQgdGVzdC1iMB4XDTI2MTEyMjIxNDExMFoXDTM2
        MTExOTIxNDExMFowGjEYMBYGA1UEAwwPWmFpa28gYXQgdGVzdC1iMFkwEwYHKoZI
        zj0CAQYIKoZIzj0DAQcDQgAEa+FOHQWEJGI7CkZAKWBTgQgpj6qzH4pDDLtUTMVH
        Pm0lz0mBO+78MBnGqntesEzTLSo5aZzlN/F3uxbS3HxRgaNjMGEwHQYDVR0OBBYE
        FKlDLR30NSgryrgfWeGNXfG44QqMMB8GA1UdIwQYMBaAFKlDLR30NSgryrgfWeGN
        XfG44QqMMA8GA1UdEwEB/wQFMAMBAf8wDgYDVR0PAQH/BAQDAgEGMAoGCCqGSM49
        BAMCA0gAMEUCIQCyJFac1jMPNKGXGBUSrsn62+OPHdHSJp7lLhDYpsJ6cgIgEcX5
        AcG12N+Im2yHTOcqSi0qo8LQebUR1st8rKI1mTI=
        -----END CERTIFICATE-----

        """
    static let secondFingerprint = "69:7E:BA:2A:AD:0C:43:EE:F9:44:2C:A1:F0:05:98:B8:D5:B8:C8:F7:1E:4E:3F:9F:F2:C9:83:B2:E7:A9:E0:BF"
    static let addresses = ["https://192.168.1.20:8443", "https://10.0.0.5:8443"]

    /// The certificate's DER, decoded here from the PEM's base64 (not by the code under test).
    static func der(_ pem: String) -> [UInt8] {
        let body = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        return Array(Data(base64Encoded: body)!)
    }

    /// A server with a household (unless `household` is false) whose CA file is `folder/ca.crt`.
    struct Server {
        let app: App
        let folder: TemporaryFolder
        let ownerToken: String?
        var caFile: URL { folder.appending("ca.crt") }

        init(pem: String?, household: Bool = true) async throws {
            folder = try TemporaryFolder()
            let database = try AppDatabase.inMemory()
            let home = household ? try Fixture(database: database, clock: ManualClock(Date())) : nil
            ownerToken = home?.ownerToken
            if let pem { try Data(pem.utf8).write(to: folder.appending("ca.crt")) }
            var quiet = Logger(label: "test")
            quiet.logLevel = .critical
            var options = AppOptions(
                setupCode: household ? nil : "ABCD2345", hasher: Argon2id(opsLimit: 1, memLimit: 8192), clock: home?.clock.wall ?? .system)
            options.tls = TLSPageSource(certificate: folder.appending("ca.crt"), addresses: TLSPageTests.addresses)
            app = try await App(database: database, resources: repositoryResources, logger: quiet, options: options)
        }

        func get(_ path: String, language: String = "en", session: String? = nil, secure: Bool = false) -> Response {
            var headers = [("Accept-Language", language), ("Host", "192.168.1.20:8080")]
            if let session { headers.append(("Cookie", "zaiko_session=\(session)")) }
            var request = Request(method: "GET", path: path, headers: Headers(headers), clientAddress: "192.168.1.30")
            request.isSecure = secure
            return app.respond(to: request)
        }
    }

    @Test func thePageShowsTheFingerprintAddressesQRAndStepsInEnglish() async throws {
        let server = try await Server(pem: Self.first)
        let page = server.get("/tls")
        #expect(page.status == 200)
        #expect(page.header("Content-Type") == "text/html; charset=utf-8")
        let text = page.text
        #expect(text.contains("<html lang=\"en\">"))
        #expect(text.contains("HTTPS on your home network"))
        // The fingerprint is openssl's, in groups that wrap on a phone but read back whole.
        let shown = text.components(separatedBy: "id=\"tls-fingerprint\">")[1].components(separatedBy: "</code>")[0]
            .replacingOccurrences(of: "<span>", with: "").replacingOccurrences(of: "</span>", with: "")
        #expect(shown == Self.firstFingerprint)
        #expect(text.contains("Zaiko at test-a"))
        for address in Self.addresses { #expect(text.contains("href=\"\(address)/\"")) }
        // The QR code is inline SVG for the first address, without a style attribute (the CSP forbids them).
        let svg = try #require(text.components(separatedBy: "<svg").dropFirst().first)
        #expect(svg.contains("aria-label=\"QR code for https://192.168.1.20:8443\""))
        #expect(svg.contains("<path fill=\"#000\" d=\"M"))
        #expect(!svg.contains("style="))
        #expect(text.contains("camera to open https://192.168.1.20:8443.</figcaption>"))
        for platform in ["iPhone and iPad", "Android", "Mac", "Windows"] { #expect(text.contains("<summary>\(platform)</summary>")) }
        #expect(text.contains("turn on “Zaiko at test-a”"))
        for link in ["/tls/zaiko.mobileconfig", "/tls/zaiko-ca.crt", "/tls/zaiko-ca.cer"] { #expect(text.contains("href=\"\(link)\"")) }
        #expect(!text.contains("HTTPS is turned off"))
        #expect(!text.contains("This page came over HTTPS"))
        // What the authority may sign, and how an older, unlimited one is replaced.
        #expect(text.contains("signs only for this server&#39;s own names") || text.contains("signs only for this server's own names"))
        #expect(text.contains("An authority made by an older version of Zaiko has no such limit."))
        #expect(text.contains("<code class=\"tls-rotate-command\">zaiko tls rotate</code>"))
    }

    @Test func thePageSpeaksJapanese() async throws {
        let server = try await Server(pem: Self.first)
        let text = server.get("/tls", language: "ja").text
        #expect(text.contains("<html lang=\"ja\">"))
        #expect(text.contains("家庭内ネットワークでHTTPS"))
        #expect(text.contains("https://192.168.1.20:8443 のQRコード"))
        #expect(text.contains("<summary>iPhone・iPad</summary>"))
        #expect(text.contains("「Zaiko at test-a」をオンにします"))
        #expect(text.contains("Windows用証明書 (.cer)"))
        #expect(text.contains("古いバージョンのZaikoが作った認証局には、この制限がありません。"))
        #expect(text.contains("<code class=\"tls-rotate-command\">zaiko tls rotate</code>"))
    }

    /// Cookies belong to one scheme: the HTTPS address needs its own sign-in, and the page says so.
    @Test func thePageSaysTheHTTPSAddressNeedsOneMoreSignIn() async throws {
        let server = try await Server(pem: Self.first)
        #expect(server.get("/tls").text.contains("open it and sign in one more time"))
        #expect(server.get("/tls", language: "ja").text.contains("そのアドレスを開いてもう一度ログインしてください"))
    }

    @Test func noSignInIsNeededEvenBeforeSetup() async throws {
        let signedIn = try await Server(pem: Self.first)
        #expect(signedIn.get("/tls", session: signedIn.ownerToken).status == 200)
        let fresh = try await Server(pem: Self.first, household: false)
        #expect(fresh.get("/tls").status == 200)
        #expect(fresh.get("/tls/zaiko-ca.crt").status == 200)
        // Everything else still leads to the setup.
        #expect(fresh.get("/login").header("Location") == "/setup")
    }

    @Test func theDownloadsAreTheCAFileInPEMAndDERWithTheirTypes() async throws {
        let server = try await Server(pem: Self.first)
        let pem = server.get("/tls/zaiko-ca.crt")
        #expect(pem.status == 200)
        #expect(pem.header("Content-Type") == "application/x-x509-ca-cert")
        #expect(pem.header("Content-Disposition") == "attachment; filename=\"zaiko-ca.crt\"")
        #expect(pem.bytes == Array(try Data(contentsOf: server.caFile)))

        let der = server.get("/tls/zaiko-ca.cer")
        #expect(der.status == 200)
        #expect(der.header("Content-Type") == "application/pkix-cert")
        #expect(der.header("Content-Disposition") == "attachment; filename=\"zaiko-ca.cer\"")
        #expect(der.bytes == Self.der(Self.first))
    }

    @Test func theProfileIsAPropertyListWithTheCertificateAsARootPayload() async throws {
        let server = try await Server(pem: Self.first)
        let response = server.get("/tls/zaiko.mobileconfig")
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "application/x-apple-aspen-config")
        #expect(response.header("Content-Disposition") == "attachment; filename=\"zaiko.mobileconfig\"")
        let plist = try #require(try PropertyListSerialization.propertyList(from: Data(response.bytes), format: nil) as? [String: Any])
        #expect(plist["PayloadType"] as? String == "Configuration")
        #expect(plist["PayloadVersion"] as? Int == 1)
        #expect(UUID(uuidString: plist["PayloadUUID"] as? String ?? "") != nil)
        let payloads = try #require(plist["PayloadContent"] as? [[String: Any]])
        #expect(payloads.count == 1)
        #expect(payloads[0]["PayloadType"] as? String == "com.apple.security.root")
        #expect(payloads[0]["PayloadDisplayName"] as? String == "Zaiko at test-a")
        #expect((payloads[0]["PayloadContent"] as? Data).map { Array($0) } == Self.der(Self.first))
        #expect(payloads[0]["PayloadUUID"] as? String != plist["PayloadUUID"] as? String)
        // The same CA gives the same profile identity; another CA another.
        #expect(server.get("/tls/zaiko.mobileconfig").bytes == response.bytes)
    }

    @Test func withoutACAFileThePageSaysHTTPSIsOffAndThereIsNothingToDownload() async throws {
        let server = try await Server(pem: nil)
        let page = server.get("/tls")
        #expect(page.status == 200)
        #expect(page.text.contains("HTTPS is turned off on this server"))
        #expect(!page.text.contains("<svg"))
        #expect(!page.text.contains("/tls/zaiko-ca.crt"))
        #expect(server.get("/tls", language: "ja").text.contains("このサーバーではHTTPSがオフになっている"))
        for path in ["/tls/zaiko-ca.crt", "/tls/zaiko-ca.cer", "/tls/zaiko.mobileconfig"] { #expect(server.get(path).status == 404) }
        // Nor do the login and account pages point there.
        #expect(!server.get("/login").text.contains("href=\"/tls\""))
        #expect(!server.get("/account", session: server.ownerToken).text.contains("href=\"/tls\""))
    }

    @Test func aFileThatIsNoCertificateCountsAsNone() async throws {
        let server = try await Server(pem: "-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n")
        #expect(server.get("/tls").text.contains("HTTPS is turned off on this server"))
        #expect(server.get("/tls/zaiko-ca.crt").status == 404)
    }

    @Test func aReplacedCAIsServedWithoutARestart() async throws {
        let server = try await Server(pem: Self.first)
        #expect(server.get("/tls").text.contains("Zaiko at test-a"))
        // Written beside and renamed over, as a rotation would; the size is the same, the inode not.
        let next = server.folder.appending("ca.crt.new")
        try Data(Self.second.utf8).write(to: next)
        #expect(rename(next.path, server.caFile.path) == 0)
        let page = server.get("/tls").text
        #expect(page.contains("Zaiko at test-b"))
        #expect(page.contains(String(Self.secondFingerprint.prefix(24))))
        #expect(server.get("/tls/zaiko-ca.cer").bytes == Self.der(Self.second))
        // Overwritten in place (same inode, same size): the modification time tells.
        try Data(Self.first.utf8).write(to: server.caFile)
        #expect(server.get("/tls/zaiko-ca.cer").bytes == Self.der(Self.first))
        try FileManager.default.removeItem(at: server.caFile)
        #expect(server.get("/tls").text.contains("HTTPS is turned off on this server"))
    }

    @Test func overHTTPSThePageSaysSo() async throws {
        let server = try await Server(pem: Self.first)
        let text = server.get("/tls", secure: true).text
        #expect(text.contains("This page came over HTTPS."))
        #expect(text.contains(Self.firstFingerprint.suffix(23)))
        #expect(server.get("/tls", language: "ja", secure: true).text.contains("このページはHTTPSで表示されています"))
    }

    @Test func loginAndAccountLinkToTheCAOnlyOverHTTP() async throws {
        let server = try await Server(pem: Self.first)
        let login = server.get("/login").text
        #expect(login.contains("<a href=\"/tls\">Use HTTPS on this device</a>"))
        #expect(server.get("/login", language: "ja").text.contains("<a href=\"/tls\">この端末でHTTPSを使う</a>"))
        let account = server.get("/account", session: server.ownerToken)
        #expect(account.status == 200)
        #expect(account.text.contains("<a href=\"/tls\">Use HTTPS on this device</a>"))

        #expect(!server.get("/login", secure: true).text.contains("href=\"/tls\""))
        #expect(!server.get("/account", session: server.ownerToken, secure: true).text.contains("href=\"/tls\""))
    }
}

extension Response {
    var bytes: [UInt8] {
        guard case .bytes(let bytes) = body else { return [] }
        return bytes
    }
}
