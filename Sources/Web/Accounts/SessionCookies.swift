import Foundation
import HTTPServer
import Inventory

/// The names and attributes of Zaiko's cookies.
///
/// Over Zaiko's own HTTPS listener every cookie is `Secure` and named with the `__Host-` prefix
/// (Path=/, no Domain): the browser keeps them to HTTPS on this host, so a session made over
/// HTTPS is never sent over HTTP, and an HTTP page (or a neighbour's forged HTTP answer) can
/// neither overwrite nor shadow them. Over HTTP the names stay as they were, so the first setup
/// works before the CA is installed; `--secure-cookies` (an HTTPS proxy in front) marks those
/// `Secure` as before.
struct SessionCookies: Sendable {
    static let session = "zaiko_session"
    static let csrf = "zaiko_csrf"
    /// A browser that signed in before (see `Accounts+Devices`).
    static let device = "zaiko_device"
    static let httpsPrefix = "__Host-"
    let secure: Bool
    let sessionName: String
    let csrfName: String
    let deviceName: String

    init(secure: Bool) {
        self.init(secure: secure, prefix: "")
    }

    private init(secure: Bool, prefix: String) {
        self.secure = secure
        sessionName = prefix + Self.session
        csrfName = prefix + Self.csrf
        deviceName = prefix + Self.device
    }

    /// The cookies of the connection the request came over.
    func over(_ request: Request) -> SessionCookies {
        request.isSecure ? SessionCookies(secure: true, prefix: Self.httpsPrefix) : self
    }

    /// The session token the request carries under this connection's name.
    func sessionToken(_ request: Request) -> String? { request.cookie(over(request).sessionName) }

    /// The double-submit token of someone not signed in, under this connection's name.
    func csrfToken(_ request: Request) -> String? { request.cookie(over(request).csrfName) }

    /// The device token the request carries under this connection's name.
    func deviceToken(_ request: Request) -> String? { request.cookie(over(request).deviceName) }

    /// The device cookie: lives as long as the server trusts the browser, only sent to this site
    /// (Lax: a sign-in form reached from a link still carries it), never readable by scripts.
    func deviceCookie(_ token: String) -> String {
        Cookies.setCookie(name: deviceName, value: token, maxAge: Int(Accounts.trustedDeviceLifetime), secure: secure, sameSite: .lax)
    }

    /// The login cookie; nil `maxAge` ends with the browser session.
    func sessionCookie(_ token: String, remember: Bool) -> String {
        Cookies.setCookie(name: sessionName, value: token, maxAge: remember ? Int(30 * 86400) : nil, secure: secure, sameSite: .lax)
    }

    func clearSession() -> String {
        Cookies.setCookie(name: sessionName, value: "", maxAge: 0, secure: secure, sameSite: .lax)
    }

    /// The form token of someone not signed in (double submit).
    func csrfCookie(_ token: String) -> String {
        Cookies.setCookie(name: csrfName, value: token, secure: secure, sameSite: .strict)
    }

    /// After a login: the signed-in redirect with the new session cookie, and the device cookie
    /// of a browser now trusted for the member.
    func signedIn(token: String, remember: Bool, device: String, to location: String) -> Response {
        var response = Response.redirect(to: location)
        response.headers.append(("Set-Cookie", sessionCookie(token, remember: remember)))
        response.headers.append(("Set-Cookie", deviceCookie(device)))
        return response
    }
}
