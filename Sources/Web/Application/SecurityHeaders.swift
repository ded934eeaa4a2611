import HTTPServer

/// Headers every response carries: no inline script, no framing, no sniffing, no referrer leaks.
enum SecurityHeaders {
    static let contentSecurityPolicy = [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        // blob: shows a chosen photo before it is sent (the crop square), never anything remote.
        "img-src 'self' data: blob:",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ].joined(separator: "; ")

    /// Made once: every response appends the same four.
    static let all: [(name: String, value: String)] = [
        ("Content-Security-Policy", contentSecurityPolicy),
        ("X-Content-Type-Options", "nosniff"),
        ("X-Frame-Options", "DENY"),
        ("Referrer-Policy", "same-origin"),
    ]

    static func apply(to response: inout Response) {
        response.headers.append(contentsOf: all)
    }
}
