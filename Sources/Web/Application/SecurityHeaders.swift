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

    static func apply(to response: inout Response) {
        response.headers.append(("Content-Security-Policy", contentSecurityPolicy))
        response.headers.append(("X-Content-Type-Options", "nosniff"))
        response.headers.append(("X-Frame-Options", "DENY"))
        response.headers.append(("Referrer-Policy", "same-origin"))
    }
}
