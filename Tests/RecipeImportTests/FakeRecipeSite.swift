import Foundation
import HTTPServer
import Synchronization

/// The saved recipe pages of Tests/Fixtures/recipes served on loopback, plus answers that go wrong
/// (redirects, 404, a picture instead of a page, a page too large), recording every request.
final class FakeRecipeSite: Responder, @unchecked Sendable {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/recipes")
    static func fixture(_ name: String) throws -> String { try String(contentsOf: fixtures.appendingPathComponent(name), encoding: .utf8) }

    private let requests = Mutex<[String]>([])
    private var server: Server!
    let picture: [UInt8]
    var base: String { "http://127.0.0.1:\(server.port)" }
    var port: UInt16 { server.port }

    init(picture: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 0x42, count: 64) + [0xFF, 0xD9]) throws {
        self.picture = picture
        let uploads = FileManager.default.temporaryDirectory.appendingPathComponent("zaiko-fake-recipes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: uploads, withIntermediateDirectories: true)
        server = Server(configuration: ServerConfiguration(host: "127.0.0.1", port: 0, threads: 2, uploadDirectory: uploads), responder: self)
        try server.start()
    }

    deinit { server.shutdown(grace: .seconds(1)) }

    var received: [String] { requests.withLock { $0 } }

    /// `/slow` answers only once released (or after half a minute).
    private let held = DispatchSemaphore(value: 0)
    func release() { held.signal() }

    func respond(to request: Request) -> Response {
        requests.withLock { $0.append(request.path) }
        let path = request.path
        if path.hasPrefix("/recipes/"), !path.contains(".."), let page = try? Self.fixture(String(path.dropFirst("/recipes/".count))) {
            return Response(status: 200, contentType: "text/html; charset=utf-8", text: page)
        }
        if path.hasSuffix(".jpg"), !path.contains("missing") {
            return Response(status: 200, headers: [("Content-Type", "image/jpeg")], body: .bytes(picture))
        }
        switch path {
        case "/slow":
            _ = held.wait(timeout: .now() + 30)
            return Response(status: 200, contentType: "text/html", text: "<p>late</p>")
        case "/shift-jis":
            // An older Japanese site: the page in Shift_JIS, said so in the header.
            let page = #"<script type="application/ld+json">{"@type":"Recipe","name":"肉じゃが","recipeIngredient":["醤油 大さじ3"]}</script>"#
            return Response(
                status: 200, headers: [("Content-Type", "text/html; charset=Shift_JIS")], body: .bytes(Array(page.data(using: .shiftJIS) ?? Data())))
        case "/moved": return Response(status: 301, headers: [("Location", "/recipes/howtostep.html")])
        case "/elsewhere": return Response(status: 302, headers: [("Location", "http://localhost:\(port)/recipes/howtostep.html")])
        case "/loop": return Response(status: 302, headers: [("Location", "/loop")])
        case "/picture": return Response(status: 200, headers: [("Content-Type", "image/jpeg")], body: .bytes(picture))
        case "/huge": return Response(status: 200, contentType: "text/html", text: String(repeating: "<p>soup</p>", count: 300_000))
        case "/broken-image":
            return Response(
                status: 200, contentType: "text/html",
                text:
                    #"<script type="application/ld+json">{"@type":"Recipe","name":"Toast","recipeIngredient":["1 slice bread"],"image":"/images/missing.jpg"}</script>"#
            )
        case "/json-ld":
            return Response(status: 200, contentType: "application/ld+json", text: #"{"@type":"Recipe","name":"Plain rice","recipeIngredient":["米 2合"]}"#)
        default: return Response(status: 404, contentType: "text/plain", text: "no such page")
        }
    }

    func respond(toRefused request: Request, status: Int) -> Response { Response(status: status) }
}
