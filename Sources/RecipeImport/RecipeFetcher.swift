import Foundation
import Outbound

/// Why a web address gave no recipe; the import page says each in the reader's words.
public enum RecipeFetchError: Error, Sendable, Equatable {
    /// Not an http or https address.
    case badAddress
    /// The address is on the server's own machine or local network, which the operator did not allow.
    case refusedAddress
    /// No answer: unknown name, connection refused, TLS failure, no answer in time, too many redirects.
    case unreachable
    /// The site answered, but not with the page (404, 500, …).
    case status(Int)
    /// The site sends readers to another site; Zaiko does not follow it there.
    case movedElsewhere(URL)
    /// The answer is not a web page (a picture, a PDF, …).
    case notAPage
    /// The page is larger than `RecipeFetcher.maxPageBytes`.
    case tooLarge
    /// A page, but without schema.org Recipe data.
    case noRecipe
}

/// What a web address gave: the recipe, and its picture's bytes when it has one that could be fetched.
public struct FetchedRecipe: Sendable, Equatable {
    public let recipe: ImportedRecipe
    public let image: [UInt8]?

    public init(recipe: ImportedRecipe, image: [UInt8]?) {
        self.recipe = recipe
        self.image = image
    }
}

/// Fetches a recipe page and its picture through `Outbound`, with the limits of the product look-up:
/// a deadline per request and one for the whole import (page, redirects and picture together, so a
/// slow site holds a server thread for at most `budget`), a size cap on the page and on the picture, the address policy
/// (no local or private addresses unless the operator allows them), and redirects followed only
/// within the same host (an http page moving to https on the same host is followed; another host is
/// reported, never fetched). The picture is fetched from wherever the recipe names it, under the same
/// policy, deadline and cap; a picture that fails only means a recipe without one.
public struct RecipeFetcher: Sendable {
    public static let maxPageBytes = 3 * 1024 * 1024
    public static let maxImageBytes = 10 * 1024 * 1024
    public static let maxRedirects = 3

    let client: any OutboundSending
    /// The longest one request may take.
    let timeout: TimeInterval
    /// The longest a whole fetch may take; the picture is skipped when too little of it is left.
    let budget: Duration

    /// What an import may take: 8 s a request, 15 s in all.
    public static let standardTimeout: TimeInterval = 8
    public static let standardBudget: Duration = .seconds(15)

    public init(client: any OutboundSending, timeout: TimeInterval = standardTimeout, budget: Duration = standardBudget) {
        self.client = client
        self.timeout = timeout
        self.budget = budget
    }

    /// The recipe at `address` (as typed: surrounding spaces are ignored, a missing scheme means https).
    public func fetch(_ address: String) async throws(RecipeFetchError) -> FetchedRecipe {
        let url = try Self.webAddress(address)
        let deadline = ContinuousClock.now + budget
        let (page, finalURL) = try await get(
            url, accept: "text/html,application/xhtml+xml,application/ld+json;q=0.9,*/*;q=0.5", limit: Self.maxPageBytes, until: deadline)
        guard Self.isPage(page) else { throw .notAPage }
        let text = Self.text(of: page)
        let json = text.drop { $0.isWhitespace }.first.map { $0 == "{" || $0 == "[" } ?? false
        guard let recipe = json ? RecipeDocument.read(json: text, baseURL: finalURL) : RecipeDocument.read(html: text, baseURL: finalURL) else {
            throw .noRecipe
        }
        return FetchedRecipe(recipe: recipe, image: await image(recipe.imageURL, until: deadline))
    }

    /// The picture's bytes, or nil when there is none, it fails, or it is no picture at all.
    public func image(_ url: URL?) async -> [UInt8]? { await image(url, until: ContinuousClock.now + budget) }

    func image(_ url: URL?, until deadline: ContinuousClock.Instant) async -> [UInt8]? {
        guard let url, let (response, _) = try? await get(url, accept: "image/*", limit: Self.maxImageBytes, until: deadline) else { return nil }
        let type = response.headers["content-type"]?.lowercased() ?? ""
        guard type.isEmpty || type.hasPrefix("image/") || type.hasPrefix("application/octet-stream"), !response.body.isEmpty else { return nil }
        return response.body
    }

    /// A typed address as a URL: http or https with a host; "example.com/x" is taken as https.
    static func webAddress(_ typed: String) throws(RecipeFetchError) -> URL {
        var text = typed.trimmingCharacters(in: .whitespacesAndNewlines)
        if !text.contains("://") { text = "https://" + text }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host, !host.isEmpty, !host.contains(" ")
        else { throw .badAddress }
        return url
    }

    /// GET `url`, following redirects on the same host only. Returns the answer and the address it came from.
    func get(_ url: URL, accept: String, limit: Int, until deadline: ContinuousClock.Instant) async throws(RecipeFetchError) -> (OutboundResponse, URL) {
        var current = url
        for _ in 0...Self.maxRedirects {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .milliseconds(500) else { throw .unreachable }
            let seconds = Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18
            let response: OutboundResponse
            do {
                response = try await client.send(
                    method: "GET", url: current, headers: [("Accept", accept), ("User-Agent", "Zaiko recipe import")], body: [],
                    timeout: min(timeout, seconds), maxResponseBytes: limit)
            } catch {
                throw Self.reason(error)
            }
            if (300..<400).contains(response.status), let location = response.headers["location"] {
                guard let next = URL(string: location, relativeTo: current)?.absoluteURL else { throw .unreachable }
                guard Self.sameHost(next, current) else { throw .movedElsewhere(next) }
                current = next
                continue
            }
            guard response.isSuccess else { throw .status(response.status) }
            return (response, current)
        }
        throw .unreachable
    }

    /// The same host and port; the scheme may only go from http to https.
    static func sameHost(_ next: URL, _ current: URL) -> Bool {
        guard let nextScheme = next.scheme?.lowercased(), let scheme = current.scheme?.lowercased(),
            nextScheme == scheme || (scheme == "http" && nextScheme == "https"),
            next.host?.lowercased() == current.host?.lowercased()
        else { return false }
        func port(_ url: URL, _ scheme: String) -> Int { url.port ?? (scheme == "https" ? 443 : 80) }
        return nextScheme == scheme ? port(next, nextScheme) == port(current, scheme) : next.port == nil || next.port == 443
    }

    static func reason(_ error: OutboundError) -> RecipeFetchError {
        switch error {
        case .unsupportedURL: return .badAddress
        case .refusedAddress: return .refusedAddress
        case .responseTooLarge: return .tooLarge
        case .unreachable, .timedOut, .transport: return .unreachable
        }
    }

    /// HTML, XHTML or JSON (a site may answer with its JSON-LD alone); a missing type is judged by the first bytes.
    static func isPage(_ response: OutboundResponse) -> Bool {
        let type = response.headers["content-type"]?.lowercased() ?? ""
        if type.isEmpty {
            let start = String(decoding: response.body.prefix(512), as: UTF8.self).lowercased()
            return start.contains("<") || start.hasPrefix("{") || start.hasPrefix("[")
        }
        return ["html", "xml", "json", "text/plain"].contains { type.contains($0) }
    }

    /// The page's text: UTF-8 unless the header or a `<meta charset>` says Shift_JIS or EUC-JP (older Japanese sites).
    static func text(of response: OutboundResponse) -> String {
        let declared = (response.headers["content-type"] ?? "") + " " + String(decoding: response.body.prefix(2048), as: UTF8.self)
        let lower = declared.lowercased()
        let data = Data(response.body)
        if lower.contains("shift_jis") || lower.contains("shift-jis") || lower.contains("sjis") || lower.contains("windows-31j"),
            let text = String(data: data, encoding: .shiftJIS)
        {
            return text
        }
        if lower.contains("euc-jp"), let text = String(data: data, encoding: .japaneseEUC) { return text }
        return String(decoding: response.body, as: UTF8.self)
    }
}
