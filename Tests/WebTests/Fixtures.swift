import Foundation
import HTTPServer
import Inventory
import Logging
import Web

/// The repository root, where Templates/ and Public/ live.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
/// The repository's public files, read once for every app the tests make.
let repositoryResources = try! Resources(root: repositoryRoot).loaded()

func makeApp() async throws -> App {
    var logger = Logger(label: "test")
    logger.logLevel = .critical
    return try await App(database: try AppDatabase.inMemory(), resources: repositoryResources, logger: logger)
}

func get(_ app: App, _ path: String, language: String? = nil, headers: [(String, String)] = []) -> Response {
    var all = headers
    if let language { all.append(("Accept-Language", language)) }
    return app.respond(to: Request(method: "GET", path: path, headers: Headers(all)))
}

extension Response {
    /// The body as text: a page's bytes or a public file's from memory ("" for a file sent from disk or a stream).
    var text: String {
        switch body {
        case .bytes(let bytes): String(decoding: bytes, as: UTF8.self)
        case .shared(let shared): String(decoding: shared.bytes, as: UTF8.self)
        case .file, .stream: ""
        }
    }
}
