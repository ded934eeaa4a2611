import APIContract
import Dispatch
import Foundation
import HTTPServer
import Inventory
import MCP
import Synchronization

/// `/api/v1/mcp`: the API's operations as tools for AI assistants (the Model Context Protocol,
/// modelcontextprotocol/swift-sdk, its stateless Streamable HTTP transport: a POST of JSON-RPC, a
/// JSON answer). Every tool is an operation of the document, named by its `operationId`, with the
/// operation's parameters and body as its input; a call is that operation sent through the same
/// routes as any API request (`APIRoutes`), with the caller's own token: the same scopes, roles,
/// household, problems in the member's language, and `Idempotency-Key`.
final class MCPEndpoint: Sendable {
    let routes: APIRoutes
    /// The MCP server's transport, made at the first request: most servers never see one, and a
    /// test process makes an app per test.
    private let running = Mutex<StatelessHTTPServerTransport?>(nil)
    /// Held while the first request starts the server, so only one is started.
    private let starting = NSLock()

    static let path = Route.API.v1 + "/mcp"
    /// The header that carries the caller's address to the tool calls (any a client sends is dropped).
    static let peerHeader = "x-zaiko-peer"

    /// The tools, one per operation of the document but the streamed ones, and the operation each stands for.
    static let operations: [String: APIOperation] = Dictionary(
        uniqueKeysWithValues: APIOperation.all.filter { !APIRoutes.streamed.contains(Route.API.v1 + $0.path) }.map { ($0.id, $0) })
    static let tools: [Tool] = {
        let document = (try? JSONDecoder().decode(Value.self, from: Data(openAPIDocument.utf8))) ?? .object([:])
        return APIOperation.all.filter { operations[$0.id] != nil }.map { MCPTools.tool(for: $0, in: document) }
    }()

    init(routes: APIRoutes) {
        self.routes = routes
    }

    /// The transport of the running MCP server, started now if this is the first request.
    private func transport() -> StatelessHTTPServerTransport {
        if let transport = running.withLock({ $0 }) { return transport }
        starting.lock()
        defer { starting.unlock() }
        if let transport = running.withLock({ $0 }) { return transport }
        let routes = self.routes
        let transport = waitForTask { await Self.start(routes: routes) }
        running.withLock { $0 = transport }
        return transport
    }

    private static func start(routes: APIRoutes) async -> StatelessHTTPServerTransport {
        // Bearer tokens, not cookies, so no Origin check; answers are JSON only (no stream).
        let transport = StatelessHTTPServerTransport(
            validationPipeline: StandardValidationPipeline(validators: [
                AcceptHeaderValidator(mode: .jsonOnly), ContentTypeValidator(), ProtocolVersionValidator(),
            ]))
        let server = MCP.Server(
            name: "zaiko", version: "1", title: "Zaiko", instructions: MCPTools.instructions,
            capabilities: .init(tools: .init(listChanged: false)))
        await server.withMethodHandler(ListTools.self) { _ in ListTools.Result(tools: tools) }
        await server.withMethodHandler(CallTool.self) { parameters in
            guard let operation = operations[parameters.name] else {
                return CallTool.Result(content: [.text(text: "No tool called \(parameters.name).", annotations: nil, _meta: nil)], isError: true)
            }
            let caller = Server.currentHandlerContext?.httpContext
            // The operation's blocking reads and writes run on a thread of Dispatch, not of the
            // cooperative pool that runs the MCP server.
            let response = await withCheckedContinuation { continuation in
                DispatchQueue.global().async {
                    continuation.resume(returning: MCPTools.call(operation, arguments: parameters.arguments ?? [:], caller: caller, routes: routes))
                }
            }
            let bytes = if case .bytes(let bytes) = response.body { bytes } else { [UInt8]() }
            // The answer as the API gives it: as text, and as structured content when it is an object.
            let structured = try? JSONDecoder().decode(Value.self, from: Data(bytes))
            return CallTool.Result(
                content: [.text(text: String(decoding: bytes, as: UTF8.self), annotations: nil, _meta: nil)],
                structuredContent: structured?.objectValue == nil ? nil : structured, isError: response.status >= 400)
        }
        // The server keeps the transport's messages coming until the process ends.
        try? await server.start(transport: transport)
        return transport
    }

    func register(in router: inout Router<Endpoint>) {
        for method in ["POST", "GET", "DELETE"] {
            router.add(method, Self.path, Endpoint(access: .token) { [self] context in answer(context) })
        }
    }

    /// A JSON-RPC message from a holder of a valid token (else the API's 401 or 429).
    func answer(_ context: RequestContext) -> HTTPServer.Response {
        routes.authenticated(context.request) { request, _, _ in answer(request) }
    }

    private func answer(_ request: HTTPServer.Request) -> HTTPServer.Response {
        var headers: [String: String] = [:]
        for (name, value) in request.headers.pairs where name.lowercased() != Self.peerHeader { headers[name] = value }
        // Where the call came from, for the token's last use and the throttle (set here only).
        headers[Self.peerHeader] = request.clientAddress
        let message = MCP.HTTPRequest(method: request.method, headers: headers, body: request.body.isEmpty ? nil : Data(request.body), path: request.path)
        let transport = self.transport()
        let answer = waitForTask { await transport.handleRequest(message) }
        var response = HTTPServer.Response(
            status: answer.statusCode, headers: answer.headers.map { ($0.key, $0.value) }, body: .bytes(Array(answer.bodyData ?? Data())))
        if response.header("Content-Type") == nil, answer.bodyData != nil { response.setHeader("Content-Type", "application/json") }
        return response
    }
}

/// The tools made from the document, and a call made into an API request.
enum MCPTools {
    static let instructions = """
        Zaiko keeps a household's stock lists (fridge, freezer, pantry) and shopping lists. Start with \
        listFolders; items are read with listItems and changed by their id. getSummary says what is \
        expired or due soon. Quantities are numbers with a unit (piece, pack, bottle, can, bag, box, g, \
        kg, ml, L).
        """

    /// The tool for an operation: its path and query parameters at the top level (`folderId`,
    /// `q`, …), headers in snake case (`idempotency_key`, `if_match`), and its JSON body as `body`;
    /// every schema with the document's `$ref`s put in place, as MCP clients read them.
    static func tool(for operation: APIOperation, in document: Value) -> Tool {
        let item = document.objectValue?["paths"]?.objectValue?[operation.path]?.objectValue ?? [:]
        let definition = item[operation.method.lowercased()]?.objectValue ?? [:]
        var properties: [String: Value] = [:]
        var required: [Value] = []
        let parameters = (item["parameters"]?.arrayValue ?? []) + (definition["parameters"]?.arrayValue ?? [])
        for parameter in parameters.compactMap({ resolve($0, in: document).objectValue }) {
            guard let name = parameter["name"]?.stringValue, let place = parameter["in"]?.stringValue else { continue }
            let key = place == "header" ? headerArgument(name) : name
            var schema = resolve(parameter["schema"] ?? .object([:]), in: document).objectValue ?? [:]
            if let text = parameter["description"] { schema["description"] = text }
            properties[key] = .object(schema)
            if parameter["required"]?.boolValue == true { required.append(.string(key)) }
        }
        if let schema = definition["requestBody"]?.objectValue?["content"]?.objectValue?["application/json"]?.objectValue?["schema"] {
            properties["body"] = resolve(schema, in: document)
            required.append(.string("body"))
        }
        let summary = definition["summary"]?.stringValue ?? operation.summary
        let more = definition["description"]?.stringValue.map { "\n\n" + $0 } ?? ""
        return Tool(
            name: operation.id, description: summary + more,
            inputSchema: .object(["type": .string("object"), "properties": .object(properties), "required": .array(required)]),
            annotations: .init(readOnlyHint: operation.method == "GET", destructiveHint: operation.method == "DELETE"))
    }

    static func headerArgument(_ name: String) -> String { name.lowercased().replacingOccurrences(of: "-", with: "_") }

    /// `schema` with every `$ref` to the document's components put in its place (the document
    /// has no cycles; the depth is bounded all the same).
    static func resolve(_ schema: Value, in document: Value, depth: Int = 0) -> Value {
        guard depth < 16 else { return .object([:]) }
        switch schema {
        case .object(let object):
            if let reference = object["$ref"]?.stringValue, reference.hasPrefix("#/") {
                var target: Value? = document
                for part in reference.dropFirst(2).split(separator: "/") { target = target?.objectValue?[String(part)] }
                return resolve(target ?? .object([:]), in: document, depth: depth + 1)
            }
            return .object(object.mapValues { resolve($0, in: document, depth: depth + 1) })
        case .array(let array):
            return .array(array.map { resolve($0, in: document, depth: depth + 1) })
        default:
            return schema
        }
    }

    /// The tool call as the API request it stands for, answered by the routes (with the caller's
    /// token and language), on the calling thread.
    static func call(_ operation: APIOperation, arguments: [String: Value], caller: MCP.HTTPRequest?, routes: APIRoutes) -> HTTPServer.Response {
        var path = Route.API.v1 + operation.path
        var query = HTTPServer.Parameters()
        var headers: [(String, String)] = []
        for (name, header) in [("authorization", "Authorization"), ("accept-language", "Accept-Language")] {
            if let value = caller?.header(name) { headers.append((header, value)) }
        }
        for (name, argument) in arguments where name != "body" {
            let text = scalarText(argument)
            if path.contains("{\(name)}") {
                path = path.replacingOccurrences(of: "{\(name)}", with: text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
            } else if name == "idempotency_key" {
                headers.append(("Idempotency-Key", text))
            } else if name == "if_match" {
                headers.append(("If-Match", text))
            } else if case .array(let values) = argument {
                for value in values { query.append(name, scalarText(value)) }
            } else {
                query.append(name, text)
            }
        }
        var body: [UInt8] = []
        if let argument = arguments["body"], let data = try? JSONEncoder().encode(argument) {
            body = Array(data)
            headers.append(("Content-Type", "application/json"))
        }
        let request = HTTPServer.Request(
            method: operation.method, path: path, query: query, headers: HTTPServer.Headers(headers), body: body,
            clientAddress: caller?.header(MCPEndpoint.peerHeader) ?? "")
        return routes.respond(toInternal: request)
    }

    static func scalarText(_ value: Value) -> String {
        switch value {
        case .string(let text): text
        case .int(let number): String(number)
        case .double(let number): number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
        case .bool(let flag): flag ? "true" : "false"
        default: ""
        }
    }
}
