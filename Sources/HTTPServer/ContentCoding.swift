import Foundation

/// Which answers are sent gzipped (RFC 9110 8.4, 12.5.3): text a client says it accepts gzipped.
enum ContentCoding {
    /// Whether an `Accept-Encoding` value accepts gzip: `gzip` (or `x-gzip`, or `*` when gzip is
    /// not named) with a weight above zero. No header means identity only, as browsers always send one.
    static func acceptsGzip(_ header: String?) -> Bool {
        guard let header, header.utf8.count <= 1024 else { return false }
        var wildcard: Bool?
        for item in header.split(separator: ",") {
            let parts = item.split(separator: ";")
            guard let name = parts.first?.trimmingCharacters(in: " \t").lowercased() else { continue }
            let accepted = !parts.dropFirst().contains { parameter in
                let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: " \t") }
                guard pair.count == 2, pair[0].lowercased() == "q", let weight = Double(pair[1]) else { return false }
                return weight <= 0
            }
            if name == "gzip" || name == "x-gzip" { return accepted }
            if name == "*" { wildcard = accepted }
        }
        return wildcard ?? false
    }

    /// Text, script, JSON and SVG compress; pictures and fonts are compressed already.
    static func isCompressible(_ contentType: String) -> Bool {
        let type = contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: " ").lowercased() } ?? ""
        return type.hasPrefix("text/") || ["application/json", "application/manifest+json", "image/svg+xml"].contains(type)
    }

    /// The gzipped form's own strong validator: the identity form's with `-gz` inside the quotes.
    static func gzipETag(_ etag: String) -> String {
        etag.hasSuffix("\"") ? String(etag.dropLast()) + "-gz\"" : etag + "-gz"
    }
}
