/// Method + path pattern routing. Patterns are literal segments, `{name}` for one segment,
/// `{name}.ext` for one segment ending in `.ext` (the parameter without it), and a final
/// `{name...}` for the rest of the path.
public struct Router<Handler: Sendable>: Sendable {
    public struct Route: Sendable {
        public let method: String
        public let pattern: String
        let segments: [Segment]
        let handler: Handler
    }

    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
        /// `{name}suffix`: a segment ending in `suffix`, bound without it.
        case suffixed(String, suffix: String)
        case rest(String)
    }

    public enum Match {
        case found(Handler, parameters: [String: String])
        /// The path exists, but not for this method; the methods it has, for `Allow`.
        case methodNotAllowed(allowed: [String])
        case notFound
    }

    public private(set) var routes: [Route] = []

    public init() {}

    public mutating func add(_ method: String, _ pattern: String, _ handler: Handler) {
        let segments = Self.split(pattern).map { part -> Segment in
            if part.hasPrefix("{"), part.hasSuffix("...}") { return .rest(String(part.dropFirst().dropLast(4))) }
            if part.hasPrefix("{"), part.hasSuffix("}") { return .parameter(String(part.dropFirst().dropLast())) }
            if part.hasPrefix("{"), let close = part.firstIndex(of: "}") {
                return .suffixed(String(part[part.index(after: part.startIndex)..<close]), suffix: String(part[part.index(after: close)...]))
            }
            return .literal(part)
        }
        routes.append(Route(method: method, pattern: pattern, segments: segments, handler: handler))
    }

    /// HEAD is answered by the GET route when there is no HEAD route of its own.
    public func match(method: String, path: String) -> Match {
        resolve(method: method, path: path).match
    }

    /// The match and the pattern of the route that decided it: the route used, else the first
    /// route with this path's shape (405); nil when nothing has it. Logs show the pattern, never
    /// the path, so a secret in a path (`/join/{token}`) stays out of them.
    public func resolve(method: String, path: String) -> (match: Match, pattern: String?) {
        let parts = Self.split(path)
        var allowed: [String] = []
        var shape: String?
        var headFallback: (Handler, [String: String], String)?
        for route in routes {
            guard let parameters = Self.bind(route.segments, to: parts) else { continue }
            if route.method == method { return (.found(route.handler, parameters: parameters), route.pattern) }
            if method == "HEAD", route.method == "GET", headFallback == nil { headFallback = (route.handler, parameters, route.pattern) }
            allowed.append(route.method)
            shape = shape ?? route.pattern
        }
        if let (handler, parameters, pattern) = headFallback { return (.found(handler, parameters: parameters), pattern) }
        return allowed.isEmpty ? (.notFound, nil) : (.methodNotAllowed(allowed: allowed), shape)
    }

    static func split(_ path: String) -> [String] {
        path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    }

    static func bind(_ segments: [Segment], to parts: [String]) -> [String: String]? {
        var parameters: [String: String] = [:]
        for (index, segment) in segments.enumerated() {
            switch segment {
            case .rest(let name):
                guard index < parts.count else { return nil }
                parameters[name] = parts[index...].joined(separator: "/")
                return parameters
            case .literal(let text):
                guard index < parts.count, parts[index] == text else { return nil }
            case .parameter(let name):
                guard index < parts.count else { return nil }
                parameters[name] = parts[index]
            case .suffixed(let name, let suffix):
                guard index < parts.count, parts[index].count > suffix.count, parts[index].hasSuffix(suffix) else { return nil }
                parameters[name] = String(parts[index].dropLast(suffix.count))
            }
        }
        return segments.count == parts.count ? parameters : nil
    }
}
