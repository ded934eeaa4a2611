import Foundation
import HTTPServer
import Inventory
import Synchronization
import TestSupport

/// A live server on a free port with a responder that reports what it received.
final class TestServer {
    let server: Server
    let uploads: URL
    let publicFolder: URL
    var port: UInt16 { server.port }

    /// `configure` changes limits and deadlines from the defaults for the test; `prepare` sees the server before it starts.
    init(
        maxBodyBytes: Int = 20 * 1024 * 1024, probe: Probe = Probe(), publicFiles: [String: [UInt8]] = [:],
        configure: (inout ServerConfiguration) -> Void = { _ in }, prepare: (Server) -> Void = { _ in }
    ) throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("zaiko-http-\(UUID().uuidString)")
        uploads = root.appendingPathComponent("uploads")
        publicFolder = root.appendingPathComponent("Public")
        try FileManager.default.createDirectory(at: uploads, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: publicFolder.appendingPathComponent("css"), withIntermediateDirectories: true)
        try Data("body { color: green }\n".utf8).write(to: publicFolder.appendingPathComponent("css/app.css"))
        try Data("secret\n".utf8).write(to: root.appendingPathComponent("secret.txt"))
        for (path, bytes) in publicFiles { try Data(bytes).write(to: publicFolder.appendingPathComponent(path)) }
        var configuration = ServerConfiguration(host: "127.0.0.1", port: 0, threads: 2, maxBodyBytes: maxBodyBytes, uploadDirectory: uploads)
        configure(&configuration)
        server = Server(configuration: configuration, responder: EchoResponder(staticFiles: try StaticFiles(root: publicFolder), probe: probe))
        prepare(server)
        try server.start()
    }

    deinit {
        server.shutdown(grace: .seconds(1))
        try? FileManager.default.removeItem(at: uploads.deletingLastPathComponent())
    }

    func client(from source: String? = nil) throws -> RawHTTPClient { try RawHTTPClient(port: port, source: source) }

    func uploadsLeft() -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: uploads.path)) ?? []
    }
}

/// What the echo endpoint reports as JSON.
struct Echo: Codable {
    struct File: Codable {
        let field: String
        let name: String
        let size: Int
        let sha256: String
        var writeError: Int32? = nil
    }
    let method: String
    let path: String
    let query: [[String]]
    let form: [[String]]
    let files: [File]
    let bodySize: Int
    let client: String
    let cookies: [String: String]
    let secure: Bool
    /// The note `admit` kept from the head, handed back with the request.
    var note: String? = nil
}

/// What the responder has seen, for tests that wait for the server to reach a point.
final class Probe: Sendable {
    private let admittedCount = Atomic<Int>(0)
    var admitted: Int { admittedCount.load(ordering: .acquiring) }
    func admit() { admittedCount.add(1, ordering: .releasing) }
}

/// Echoes requests as JSON. At header time: `/small…` may send 1 KB and no files, `/closed…` is
/// answered 403 at once, everything else gets the server's limits and a note naming the head.
struct EchoResponder: Responder {
    let staticFiles: StaticFiles
    var probe = Probe()

    func admit(_ head: Request) -> Admission {
        probe.admit()
        if head.path.hasPrefix("/small") { return .read(BodyLimit(maxBytes: 1024, allowsFiles: false)) }
        if head.path.hasPrefix("/closed") { return .answer(Response(status: 403, contentType: "text/plain", text: "closed at the door")) }
        return .read(.serverLimits, note: "admitted \(head.method) \(head.path), note \(head.admissionNote == nil ? "nil" : "set")")
    }

    /// `/page…` is made per request like an application's page (`PageCompressionTests`); `/inline…`
    /// too, answered on the thread that read it.
    func answersInline(_ request: Request) -> Bool { request.path.hasPrefix("/inline") }

    func respond(to request: Request) -> Response {
        if request.path.hasPrefix("/page") || request.path.hasPrefix("/inline") { return Self.page(request.query) }
        if request.path.hasPrefix("/static/") {
            return staticFiles.response(for: String(request.path.dropFirst("/static/".count)), request: request)
                ?? Response(status: 404, contentType: "text/plain", text: "not found")
        }
        guard request.path.hasPrefix("/echo") || request.path.hasPrefix("/small") else {
            return Response(status: 404, contentType: "text/plain", text: "not found")
        }
        let files = request.files.map { file -> Echo.File in
            let bytes = (try? Data(contentsOf: file.temporaryURL)).map(Array.init) ?? []
            return Echo.File(
                field: file.fieldName, name: file.clientFileName, size: file.size, sha256: Crypto.hex(Crypto.sha256(bytes)), writeError: file.writeError)
        }
        let echo = Echo(
            method: request.method, path: request.path,
            query: request.query.pairs.map { [$0.name, $0.value] }, form: request.form.pairs.map { [$0.name, $0.value] },
            files: files, bodySize: request.body.count, client: request.clientAddress, cookies: request.cookies,
            secure: request.isSecure, note: request.admissionNote as? String)
        let json = (try? JSONEncoder().encode(echo)).map(Array.init) ?? []
        return Response(status: 200, headers: [("Content-Type", "application/json")], body: .bytes(json))
    }

    func respond(toRefused request: Request, status: Int) -> Response {
        Response(status: status, contentType: "text/plain", text: "refused \(status)")
    }

    /// A list of `rows` rows as `type` (HTML unless named), with the ETag `etag` when given.
    static func page(_ query: Parameters) -> Response {
        let rows = Int(query["rows"] ?? "") ?? 100
        let body = (0..<rows).map { "<li class=\"row\">Milk \($0), 2 bottles, due 2026-11-\(10 + $0 % 20)</li>\n" }.joined()
        var response = Response(status: 200, contentType: query["type"] ?? "text/html; charset=utf-8", text: body)
        if let etag = query["etag"] { response.headers.append(("ETag", "\"\(etag)\"")) }
        return response
    }
}

extension RawHTTPClient.Reply {
    func echo() throws -> Echo { try JSONDecoder().decode(Echo.self, from: Data(body)) }
}
