import Foundation
import HTTPServer
import Inventory
import Logging
import Outbound
import SnapshotTesting
import TestSupport
import Testing

@testable import Web

/// The main pages whole, as a real listener sends them for a demo household (status, headers and
/// every byte of the body), against the recorded pages in `__Snapshots__/PageSnapshotTests/`: a
/// change of markup anywhere on these pages fails here, where a substring check would pass. Only
/// what is random by design, and the versions in public files' addresses, are normalised
/// (`Live.normalised`). A page that is meant to change is recorded again by deleting its file and
/// running the test once (it records and fails).
struct PageSnapshotTests {
    /// A page and the languages it is recorded in.
    struct Page: Sendable, CustomTestStringConvertible {
        let name: String
        let path: String
        var languages = ["en"]

        var testDescription: String { name }
    }

    /// Ids are the demo household's on a new database: Fridge (1) and Supermarket (4), its first
    /// item and its first recipe.
    static let pages: [Page] = [
        Page(name: "folders", path: "/", languages: ["en", "ja"]),
        Page(name: "stock-list", path: "/folders/1", languages: ["en", "ja"]),
        Page(name: "shopping-list", path: "/folders/4", languages: ["en", "ja"]),
        Page(name: "item", path: "/items/1", languages: ["en", "ja"]),
        Page(name: "editor-new", path: "/items/new?folder=1", languages: ["en", "ja"]),
        Page(name: "editor-edit", path: "/items/1/edit", languages: ["en", "ja"]),
        // Two items of the shopping list bought, into the Fridge.
        Page(name: "bought", path: "/folders/4/bought?stock=1&ids=2&ids=3"),
        Page(name: "soon", path: "/soon"),
        Page(name: "calendar", path: "/calendar"),
        Page(name: "recipes", path: "/recipes"),
        Page(name: "recipe", path: "/recipes/1"),
        Page(name: "settings", path: "/settings"),
        Page(name: "account", path: "/account"),
        Page(name: "household", path: "/household", languages: ["en", "ja"]),
    ]

    @Test(arguments: pages)
    func aMainPageIsAsRecorded(_ page: Page) async throws {
        let live = try await Live()
        for language in page.languages {
            // Uncompressed: the gzipped form's length would depend on zlib's version (URLSession asks for gzip by itself).
            let answer = try await live.get(page.path, language: language, headers: [("Accept-Encoding", "identity")])
            #expect(answer.status == 200, "\(page.path) in \(language)")
            assertSnapshot(of: live.normalised(answer), as: .lines, named: language, testName: page.name)
        }
    }

    /// The demo household (40 items, its 20 recipes) behind a real listener on a free port, at a
    /// fixed instant, and its owner signed in.
    final class Live: @unchecked Sendable {
        /// 03:00 UTC, noon in Tokyo (the demo household's time zone): no day ends nearby.
        static let instant = utc("2026-11-26T03:00:00Z")

        let app: App
        let server: Server
        let session: String
        /// Values that differ on every run and what the snapshots show instead.
        let volatile: [(value: String, placeholder: String)]

        /// `resources`: the folder holding `Public/` (a copy, for a test that edits a file).
        init(resources: URL = repositoryRoot) async throws {
            let database = try AppDatabase.inMemory()
            let clock = ManualClock(Self.instant)
            let hasher = Argon2id(opsLimit: 1, memLimit: 8192)
            let (login, password) = try DemoHousehold(database: database, clock: clock.wall).create(items: 40, recipes: 20, hasher: hasher)
            var quiet = Logger(label: "test")
            quiet.logLevel = .critical
            app = try await App(
                database: database, resources: Resources(root: resources), logger: quiet,
                options: AppOptions(setupCode: nil, hasher: hasher, clock: clock.wall))
            guard
                case .signedIn(let token, _, _) = try Accounts(database: database, hasher: hasher, clock: clock.wall).logIn(
                    login: login, password: password, peer: "127.0.0.1", userAgent: "snapshot", remember: false)
            else { throw InventoryError.conflict }
            session = token
            let csrf = try #require(try Accounts(database: database, hasher: hasher, clock: clock.wall).session(token: token)).csrfToken
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("zaiko-page-snapshots-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            server = Server(configuration: ServerConfiguration(host: "127.0.0.1", port: 0, threads: 2, uploadDirectory: folder), responder: app)
            try server.start()
            // `zaiko demo` draws the owner's login and password; a session's CSRF token is random;
            // the listener's port is a free one.
            volatile = [
                (csrf, "{CSRF}"), (session, "{SESSION}"), (login, "{LOGIN}"), (password, "{PASSWORD}"),
                ("127.0.0.1:\(server.port)", "127.0.0.1:{PORT}"),
            ]
        }

        deinit { server.shutdown(grace: .seconds(1)) }

        func get(_ path: String, language: String = "en", headers: [(String, String)] = []) async throws -> OutboundResponse {
            try await OutboundHTTP(policy: .anywhere).send(
                method: "GET", url: URL(string: "http://127.0.0.1:\(server.port)\(path)")!,
                headers: [("Cookie", "zaiko_session=\(session)"), ("Accept-Language", language)] + headers, body: [], timeout: 60,
                maxResponseBytes: 4 * 1024 * 1024)
        }

        /// Status, headers (by name, all but Date) and body, with the volatile values replaced.
        /// Content-Length is shown as "(the body's)" when it is the body's length: a volatile
        /// value's length varies (the demo login's does).
        func normalised(_ answer: OutboundResponse) -> String {
            let headers = answer.headers.filter { $0.key.lowercased() != "date" }.sorted { $0.key < $1.key }.map { header in
                let isBodyLength = header.key.lowercased() == "content-length" && header.value == "\(answer.body.count)"
                return "\(header.key): \(isBodyLength ? "(the body's)" : header.value)"
            }
            var text = (["\(answer.status)"] + headers).joined(separator: "\n") + "\n\n" + String(decoding: answer.body, as: UTF8.self)
            for (value, placeholder) in volatile.sorted(by: { $0.value.count > $1.value.count }) {
                text = text.replacingOccurrences(of: value, with: placeholder)
            }
            // A public file's address carries its content's hash, which an edit of the file changes, not of the page.
            return text.replacingOccurrences(of: #"\?v=[0-9a-f]{16}""#, with: "?v={VERSION}\"", options: .regularExpression)
        }
    }
}
