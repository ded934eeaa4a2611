import Foundation
import HTTPServer
import Inventory
import Synchronization
import Testing

@testable import Web

/// An Open Food Facts–shaped service on loopback: products by barcode, one picture, and a
/// record of every request it was sent.
final class FakeProductService: Responder, @unchecked Sendable {
    private let requests = Mutex<[String]>([])
    private var server: Server!
    let picture = UploadFixtures.jpeg(400, 300)
    /// How the service answers product requests: "ok", "foreign-image", "broken", "500".
    let mode: String
    var base: String { "http://127.0.0.1:\(server.port)" }

    init(mode: String = "ok") throws {
        self.mode = mode
        let uploads = FileManager.default.temporaryDirectory.appendingPathComponent("zaiko-fake-off-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: uploads, withIntermediateDirectories: true)
        server = Server(configuration: ServerConfiguration(host: "127.0.0.1", port: 0, threads: 1, uploadDirectory: uploads), responder: self)
        try server.start()
    }

    deinit { server.shutdown(grace: .seconds(1)) }

    var received: [String] { requests.withLock { $0 } }

    func respond(to request: Request) -> Response {
        let query = request.query.pairs.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
        requests.withLock { $0.append(request.path + (query.isEmpty ? "" : "?" + query)) }
        if request.path == "/images/front.jpg" { return Response(status: 200, headers: [("Content-Type", "image/jpeg")], body: .bytes(picture)) }
        guard request.path == "/api/v2/product/4912345678904.json" else {
            return Response(status: 404, contentType: "application/json", text: #"{"status":0}"#)
        }
        switch mode {
        case "500": return Response(status: 500, contentType: "text/plain", text: "trouble")
        case "broken": return Response(status: 200, contentType: "application/json", text: "{not json")
        case "foreign-image":
            return Response(
                status: 200, contentType: "application/json",
                text: #"{"status":1,"product":{"product_name":"Genmai cha","image_front_url":"http://evil.example/x.jpg"}}"#)
        default:
            return Response(
                status: 200, contentType: "application/json",
                text: #"{"status":1,"product":{"product_name":"Genmai cha","image_front_url":"\#(base)/images/front.jpg"}}"#)
        }
    }

    func respond(toRefused request: Request, status: Int) -> Response { Response(status: status) }
}

@Suite("Online barcode look-up")
struct ProductLookupTests {
    /// Sent from a plain thread, as libmicrohttpd's workers are: the look-up blocks its thread while
    /// the answer comes back on Swift's cooperative pool, which a test's own task must not hold.
    func scan(_ fixture: HouseholdFixture, _ code: String = "4912345678904") async throws -> Response {
        let form = [
            ("folder", "\(fixture.fridgeId)"), ("d0.name", ""), ("d0.quantity", "1"), ("d0.unit", "piece"), ("d0.kind", "other"),
            ("d0.status", "unopened"), ("action", "scan"),
        ]
        let files = [try UploadFixtures.file("scan_file", try UploadFixtures.barcode(code), name: "scan.png")]
        return try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try fixture.send("POST", "/items/new", as: fixture.member, form: form, files: files) })
            }
        }
    }

    func turnOn(_ fixture: HouseholdFixture, _ service: FakeProductService) throws {
        let response = try fixture.send("POST", "/settings/lookup", as: fixture.owner, form: [("lookup_enabled", "1"), ("product_lookup_url", service.base)])
        #expect(response.status == 303)
    }

    @Test func offByDefaultNothingLeavesTheHouse() async throws {
        let fixture = try await HouseholdFixture()
        let service = try FakeProductService()
        let page = try await scan(fixture).text
        #expect(page.contains("value=\"4912345678904\""))
        #expect(service.received.isEmpty)
    }

    @Test func whenOnTheNameAndPictureComeFromTheServiceAndOnlyTheDigitsAreSent() async throws {
        let fixture = try await HouseholdFixture()
        let service = try FakeProductService()
        try turnOn(fixture, service)
        let page = try await scan(fixture).text
        #expect(page.contains("name=\"d0.name\" type=\"text\" value=\"Genmai cha\""))
        #expect(page.firstMatch(of: /value="photo:[0-9a-f]{32}" checked/) != nil, "the picture went through the photo pipeline")
        #expect(service.received.count == 2)
        #expect(service.received.first?.hasPrefix("/api/v2/product/4912345678904.json") == true)
        #expect(service.received.last == "/images/front.jpg")
    }

    @Test func aPictureOnAnotherSiteIsNeverFetched() async throws {
        let fixture = try await HouseholdFixture()
        let service = try FakeProductService(mode: "foreign-image")
        try turnOn(fixture, service)
        let page = try await scan(fixture).text
        #expect(page.contains("value=\"Genmai cha\""))
        #expect(service.received.count == 1)
        #expect(page.firstMatch(of: /value="photo:[0-9a-f]{32}" checked/) == nil)
    }

    @Test(arguments: ["500", "broken"])
    func aFailingServiceLeavesTheFormUsable(mode: String) async throws {
        let fixture = try await HouseholdFixture()
        let service = try FakeProductService(mode: mode)
        try turnOn(fixture, service)
        let response = try await scan(fixture)
        #expect(response.status == 200)
        #expect(response.text.contains("value=\"4912345678904\""))
        #expect(response.text.contains(HTMLEscaped(fixture.app.renderer.localizations.catalogs["en"]!.format(.scanFound, ["code": "4912345678904"]))))
    }

    @Test func aServiceThatIsDownLeavesTheFormUsable() async throws {
        let fixture = try await HouseholdFixture()
        #expect(
            try fixture.send("POST", "/settings/lookup", as: fixture.owner, form: [("lookup_enabled", "1"), ("product_lookup_url", "http://127.0.0.1:9")])
                .status == 303)
        let response = try await scan(fixture)
        #expect(response.status == 200)
        #expect(response.text.contains("value=\"4912345678904\""))
    }

    @Test func aServiceOnTheLocalNetworkIsNotAskedUnlessTheOperatorAllowsIt() async throws {
        let fixture = try await HouseholdFixture(allowPrivateOutbound: false)
        let service = try FakeProductService()
        try turnOn(fixture, service)
        let response = try await scan(fixture)
        #expect(response.status == 200)
        #expect(response.text.contains("value=\"4912345678904\""))
        #expect(!response.text.contains("Genmai cha"))
        #expect(service.received.isEmpty, "nothing reached the loopback service")
    }

    @Test func aKnownBarcodeNeverAsksTheService() async throws {
        let fixture = try await HouseholdFixture()
        let service = try FakeProductService()
        try turnOn(fixture, service)
        _ = try await scan(fixture, "4901234567894") // the fixture's milk
        #expect(service.received.isEmpty)
    }

    @Test func theAddressIsCheckedAndKeptWhenWrong() async throws {
        let fixture = try await HouseholdFixture()
        let response = try fixture.send(
            "POST", "/settings/lookup", as: fixture.owner, form: [("lookup_enabled", "1"), ("product_lookup_url", "ftp://files.example")])
        #expect(response.status == 422)
        #expect(response.text.contains("value=\"ftp://files.example\""))
        #expect(response.text.contains(HTMLEscaped(fixture.app.renderer.localizations.catalogs["en"]![.lookupUrlInvalid])))
        #expect(
            try fixture.send("POST", "/settings/lookup", as: fixture.member, form: [("lookup_enabled", "1"), ("product_lookup_url", "http://x.example")]).status
                == 403)
    }

    @Test func siblingHostsOfTheServiceAreTheOnlyOtherPlaceForPictures() {
        let service = URL(string: "https://world.openfoodfacts.org/api/v2/product/1.json")!
        #expect(ProductLookup.sameSite(URL(string: "https://images.openfoodfacts.org/images/1.jpg")!, as: service))
        #expect(!ProductLookup.sameSite(URL(string: "https://openfoodfacts.org.evil.example/1.jpg")!, as: service))
        #expect(!ProductLookup.sameSite(URL(string: "file:///etc/passwd")!, as: service))
        let local = URL(string: "http://127.0.0.1:8080/api")!
        #expect(ProductLookup.sameSite(URL(string: "http://127.0.0.1:8080/x.jpg")!, as: local))
        #expect(!ProductLookup.sameSite(URL(string: "http://127.0.0.1:22/x.jpg")!, as: local))
        #expect(!ProductLookup.sameSite(URL(string: "http://10.0.0.1:8080/x.jpg")!, as: local))
    }
}
