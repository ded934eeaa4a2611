import Foundation
import HTTPServer

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
