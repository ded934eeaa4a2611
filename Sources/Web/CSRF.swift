import Inventory
import Foundation
import HTTPServer

/// Cross-site request forgery checks for every POST.
enum CSRF {
    /// The form's `_csrf` must equal the expected token (compared in constant time), and a
    /// browser that says where the form came from must say it came from this site.
    static func accepts(_ request: Request, expected: String?) -> Bool {
        guard isSameOrigin(request) else { return false }
        guard let expected, !expected.isEmpty, let sent = request.form["_csrf"] else { return false }
        return Crypto.constantTimeEquals(sent, expected)
    }

    static func isSameOrigin(_ request: Request) -> Bool {
        if request.headers["sec-fetch-site"] == "cross-site" { return false }
        guard let origin = request.headers["origin"], origin != "null" else { return true }
        guard let host = request.headers["host"] else { return false }
        return origin == "http://\(host)" || origin == "https://\(host)"
    }
}

/// The names and attributes of Zaiko's cookies.
struct SessionCookies: Sendable {
    static let session = "zaiko_session"
    static let csrf = "zaiko_csrf"
    let secure: Bool

    /// The login cookie; nil `maxAge` ends with the browser session.
    func sessionCookie(_ token: String, remember: Bool) -> String {
        Cookies.setCookie(name: Self.session, value: token, maxAge: remember ? Int(30 * 86400) : nil, secure: secure, sameSite: .lax)
    }

    func clearSession() -> String {
        Cookies.setCookie(name: Self.session, value: "", maxAge: 0, secure: secure, sameSite: .lax)
    }

    /// The form token of someone not signed in (double submit).
    func csrfCookie(_ token: String) -> String {
        Cookies.setCookie(name: Self.csrf, value: token, secure: secure, sameSite: .strict)
    }

    /// After a login: the signed-in redirect with the new session cookie.
    func signedIn(token: String, remember: Bool, to location: String) -> Response {
        var response = Response.redirect(to: location)
        response.headers.append(("Set-Cookie", sessionCookie(token, remember: remember)))
        return response
    }
}
