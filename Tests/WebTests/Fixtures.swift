import Foundation
import HTTPServer
import Inventory
import Logging
import Web

/// The repository root, where Templates/ and Public/ live.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

func makeApp() async throws -> App {
    var logger = Logger(label: "test")
    logger.logLevel = .critical
    return try await App(database: try AppDatabase.inMemory(), resources: Resources(root: repositoryRoot), logger: logger)
}

func get(_ app: App, _ path: String, language: String? = nil, headers: [(String, String)] = []) -> Response {
    var all = headers
    if let language { all.append(("Accept-Language", language)) }
    return app.respond(to: Request(method: "GET", path: path, headers: Headers(all)))
}

extension Response {
    var text: String {
        guard case .bytes(let bytes) = body else { return "" }
        return String(decoding: bytes, as: UTF8.self)
    }
}
