import Foundation
import HTTPServer
import Inventory

/// A live server on a free port with a responder that reports what it received.
final class TestServer {
    let server: Server
    let uploads: URL
    let publicFolder: URL
    var port: UInt16 { server.port }

    init(maxBodyBytes: Int = 20 * 1024 * 1024) throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("zaiko-http-\(UUID().uuidString)")
        uploads = root.appendingPathComponent("uploads")
        publicFolder = root.appendingPathComponent("Public")
        try FileManager.default.createDirectory(at: uploads, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: publicFolder.appendingPathComponent("css"), withIntermediateDirectories: true)
        try Data("body { color: green }\n".utf8).write(to: publicFolder.appendingPathComponent("css/app.css"))
        try Data("secret\n".utf8).write(to: root.appendingPathComponent("secret.txt"))
        let configuration = ServerConfiguration(host: "127.0.0.1", port: 0, threads: 2, maxBodyBytes: maxBodyBytes, uploadDirectory: uploads)
        server = Server(configuration: configuration, responder: EchoResponder(staticFiles: try StaticFiles(root: publicFolder)))
        try server.start()
    }

    deinit {
        server.shutdown(grace: .seconds(1))
        try? FileManager.default.removeItem(at: uploads.deletingLastPathComponent())
    }

    func client() throws -> RawHTTPClient { try RawHTTPClient(port: port) }

    func uploadsLeft() -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: uploads.path)) ?? []
    }
}

/// What the echo endpoint reports as JSON.
struct Echo: Codable {
    struct File: Codable { let field: String; let name: String; let size: Int; let sha256: String }
    let method: String
    let path: String
    let query: [[String]]
    let form: [[String]]
    let files: [File]
    let bodySize: Int
    let client: String
    let cookies: [String: String]
}

struct EchoResponder: Responder {
    let staticFiles: StaticFiles

    func respond(to request: Request) -> Response {
        if request.path.hasPrefix("/static/") {
            return staticFiles.response(for: String(request.path.dropFirst("/static/".count)), request: request)
                ?? Response(status: 404, contentType: "text/plain", text: "not found")
        }
        guard request.path.hasPrefix("/echo") else {
            return Response(status: 404, contentType: "text/plain", text: "not found")
        }
        let files = request.files.map { file -> Echo.File in
            let bytes = (try? Data(contentsOf: file.temporaryURL)).map(Array.init) ?? []
            return Echo.File(field: file.fieldName, name: file.clientFileName, size: file.size, sha256: Crypto.hex(Crypto.sha256(bytes)))
        }
        let echo = Echo(
            method: request.method, path: request.path,
            query: request.query.pairs.map { [$0.name, $0.value] }, form: request.form.pairs.map { [$0.name, $0.value] },
            files: files, bodySize: request.body.count, client: request.clientAddress, cookies: request.cookies)
        let json = (try? JSONEncoder().encode(echo)).map(Array.init) ?? []
        return Response(status: 200, headers: [("Content-Type", "application/json")], body: .bytes(json))
    }

    func respond(toRefused request: Request, status: Int) -> Response {
        Response(status: status, contentType: "text/plain", text: "refused \(status)")
    }
}

extension RawHTTPClient.Reply {
    func echo() throws -> Echo { try JSONDecoder().decode(Echo.self, from: Data(body)) }
}
