/// Method + path pattern routing. Patterns are literal segments, `{name}` for one segment,
/// `{name}.ext` for one segment ending in `.ext` (the parameter without it), and a final
/// `{name...}` for the rest of the path.
///
/// When several patterns match a path, the more specific one wins whatever order they were
/// added in: segment by segment from the left, a literal beats `{name}.ext`, which beats
/// `{name}`, which beats `{name...}` (`/recipes/new` before `/recipes/{id}`). Among the matching
/// routes, the first in that order with the request's method answers.
public struct Router<Handler: Sendable>: Sendable {
    public struct Route: Sendable {
        public let method: String
        public let pattern: String
        let segments: [Segment]
        public let handler: Handler
    }

    typealias Segment = RouteSegment

    public enum Match: Sendable {
        case found(Handler, parameters: [String: String])
        /// The path exists, but not for this method; the methods it has, for `Allow`.
        case methodNotAllowed(allowed: [String])
        case notFound
    }

    public private(set) var routes: [Route] = []
    /// The same routes without their handlers, matched by code that is not generic (a generic
    /// router called from another module runs unspecialized, looking up type metadata per call).
    private var table = RouteTable()

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
        table.add(method: method, pattern: pattern, segments: segments)
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
        switch table.resolve(method: method, path: path) {
        case .found(let index, let parameters):
            return (.found(routes[index].handler, parameters: parameters), routes[index].pattern)
        case .methodNotAllowed(let allowed, let shape):
            return (.methodNotAllowed(allowed: allowed), shape)
        case .notFound:
            return (.notFound, nil)
        }
    }

    static func split(_ path: String) -> [String] {
        path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    }
}

/// Routes without handlers: which one a method and path reach.
struct RouteTable: Sendable {
    typealias Segment = RouteSegment

    enum Resolution {
        case found(index: Int, parameters: [String: String])
        case methodNotAllowed(allowed: [String], shape: String)
        case notFound
    }

    private var methods: [String] = []
    private var patterns: [String] = []
    private var segments: [[Segment]] = []
    /// How specific each route is (see `Router`): compared segment by segment, lower first.
    private var ranks: [[UInt8]] = []
    /// Positions by the first segment when it is literal ("" for `/`); routes that start with a
    /// parameter are in `parameterFirst`. A path tries only the routes that can match its first
    /// segment: the literal ones before the others, each list most specific first (in the order
    /// the routes were added when equally specific).
    private var literalFirst: [String: [Int]] = [:]
    private var parameterFirst: [Int] = []

    mutating func add(method: String, pattern: String, segments routeSegments: [Segment]) {
        let index = methods.count
        methods.append(method)
        patterns.append(pattern)
        segments.append(routeSegments)
        ranks.append(routeSegments.map(\.rank))
        switch routeSegments.first {
        case .literal(let text): insert(index, into: &literalFirst[text, default: []])
        case nil: insert(index, into: &literalFirst["", default: []])
        default: insert(index, into: &parameterFirst)
        }
    }

    /// Puts `index` after every route at least as specific as it.
    private func insert(_ index: Int, into list: inout [Int]) {
        let position = list.firstIndex { ranks[index].lexicographicallyPrecedes(ranks[$0]) } ?? list.count
        list.insert(index, at: position)
    }

    func resolve(method: String, path: String) -> Resolution {
        // Split by byte: a String's own split walks it Character by Character.
        let parts = path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true).map { Substring($0) }
        let literal = literalFirst[parts.first.map(String.init) ?? ""] ?? []
        var allowed: [String] = []
        var shape: String?
        var headFallback: (index: Int, parameters: [String: String])?
        for position in 0..<(literal.count + parameterFirst.count) {
            let index = position < literal.count ? literal[position] : parameterFirst[position - literal.count]
            guard let parameters = Self.bind(segments[index], to: parts) else { continue }
            if methods[index] == method { return .found(index: index, parameters: parameters) }
            if method == "HEAD", methods[index] == "GET", headFallback == nil { headFallback = (index, parameters) }
            allowed.append(methods[index])
            shape = shape ?? patterns[index]
        }
        if let headFallback { return .found(index: headFallback.index, parameters: headFallback.parameters) }
        guard let shape else { return .notFound }
        return .methodNotAllowed(allowed: allowed, shape: shape)
    }

    static func bind(_ segments: [Segment], to parts: [Substring]) -> [String: String]? {
        let endsWithRest = if case .rest = segments.last { true } else { false }
        guard segments.count == parts.count || (endsWithRest && parts.count >= segments.count) else { return nil }
        var parameters: [String: String] = [:]
        for index in segments.indices {
            switch segments[index] {
            case .rest(let name):
                // The rest as the path spells it when it has no empty segment, else rejoined.
                let rest = parts[index].base[parts[index].startIndex..<parts[parts.count - 1].endIndex]
                let length = parts[index...].reduce(parts.count - index - 1) { $0 + $1.utf8.count }
                parameters[name] = rest.utf8.count == length ? String(rest) : parts[index...].joined(separator: "/")
                return parameters
            case .literal(let text):
                guard parts[index] == text else { return nil }
            case .parameter(let name):
                parameters[name] = String(parts[index])
            case .suffixed(let name, let suffix):
                guard parts[index].count > suffix.count, parts[index].hasSuffix(suffix) else { return nil }
                parameters[name] = String(parts[index].dropLast(suffix.count))
            }
        }
        return parameters
    }
}

/// One segment of a route pattern.
enum RouteSegment: Sendable, Equatable {
    case literal(String)
    case parameter(String)
    /// `{name}suffix`: a segment ending in `suffix`, bound without it.
    case suffixed(String, suffix: String)
    case rest(String)

    /// Lower is more specific: literal, then suffixed, then one segment, then the rest.
    var rank: UInt8 {
        switch self {
        case .literal: 0
        case .suffixed: 1
        case .parameter: 2
        case .rest: 3
        }
    }
}
