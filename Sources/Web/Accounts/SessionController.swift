import Foundation
import HTTPServer
import Inventory

/// Signing in and out.
struct SessionController {
    let accounts: Accounts
    let renderer: Renderer
    let cookies: SessionCookies
    let clock: WallClock
    /// Whether to point to /tls (the page came over HTTP and there is a CA to install).
    var httpsHelp = HTTPSHelp(file: nil)

    func register(in router: inout Router<Endpoint>) {
        router.get(Route.login, .open, use: loginForm)
        router.post(Route.login, .open, use: logIn)
        router.post(Route.logout, .signedIn, use: logOut)
    }

    /// The sign-in form; a signed-in member goes home instead.
    func loginForm(_ context: RequestContext) throws -> Response {
        if context.member != nil { return .redirect(to: Route.home) }
        let notice = context.request.query["reset"] == "1" ? context.locale[.passwordResetDone] : nil
        return renderer.response(page(context, error: nil, notice: notice), context)
    }

    /// Signs in, or says why not: a wrong login or password, or too many tries lately.
    func logIn(_ context: RequestContext) throws -> Response {
        let form = try context.form(LoginForm.self)
        let outcome = try accounts.logIn(
            login: form.login, password: form.password.text, peer: context.request.clientAddress,
            userAgent: context.request.headers["user-agent"] ?? "", remember: form.remember,
            device: cookies.deviceToken(context.request))
        switch outcome {
        case .signedIn(let token, let remember, let device):
            // Whatever session this browser had before is ended, not carried over.
            if let previous = context.member { try accounts.logOut(sessionId: previous.sessionId) }
            return cookies.over(context.request).signedIn(token: token, remember: remember, device: device, to: Self.safeNext(form.next))
        case .rejected:
            return renderer.response(page(context, posted: form, error: context.locale[.loginFailed], notice: nil), context, status: 422)
        case .throttled(let until):
            let seconds = max(1, Int(until.timeIntervalSince(clock.now()).rounded(.up)))
            return throttled(context, posted: form, seconds: seconds)
        }
    }

    /// The form again with how long to wait, and `Retry-After`.
    private func throttled(_ context: RequestContext, posted form: LoginForm, seconds: Int) -> Response {
        let message =
            seconds < 120
            ? context.locale.format(.loginThrottledSeconds, ["seconds": "\(seconds)"])
            : context.locale.format(.loginThrottledMinutes, ["minutes": "\((seconds + 59) / 60)"])
        var response = renderer.response(page(context, posted: form, error: message, notice: nil), context, status: 429)
        response.headers.append(("Retry-After", "\(seconds)"))
        return response
    }

    /// Ends the session and tells the browser to forget what it keeps of this site besides cookies:
    /// the service worker's copies of the household's lists and photos, and its HTTP cache, so the
    /// next person to use the phone finds none of them (browsers honour it over HTTPS, where alone
    /// the worker exists; app.js clears the copies too before the form is sent).
    func logOut(_ context: RequestContext) throws -> Response {
        try accounts.logOut(sessionId: try context.signedIn.sessionId)
        var response = Response.redirect(to: Route.login)
        response.headers.append(("Set-Cookie", cookies.over(context.request).clearSession()))
        response.headers.append(("Clear-Site-Data", Self.forgetCopies))
        return response
    }

    /// `Clear-Site-Data` on signing out: the HTTP cache and every store of the site (Cache
    /// Storage, IndexedDB, the service worker's registration), not the cookies (the device cookie
    /// stays, as the browser is still the one that signed in before).
    static let forgetCopies = "\"cache\", \"storage\""

    /// Only paths on this site: one leading `/`, no second `/` right after it, no backslash and no
    /// control character anywhere (browsers drop tabs and newlines, turning `/\t/evil` into `//evil`).
    static func safeNext(_ next: String) -> String {
        let scalars = next.unicodeScalars
        guard next.hasPrefix("/"), !next.hasPrefix("//"), !next.contains("\\"),
            !scalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f || CharacterSet.whitespacesAndNewlines.contains($0) })
        else { return "/" }
        return next
    }

    /// The sign-in form; `posted`: as it was sent, when it comes back.
    func page(_ context: RequestContext, posted form: LoginForm? = nil, error: String?, notice: String?) -> FormPage {
        let t = context.locale
        // Untrimmed, as the address or the form had it.
        let next = context.request.form["next"] ?? context.request.query["next"] ?? ""
        var page = FormPage(
            heading: t[.loginHeading], intro: notice, formError: error, action: Route.login, submitLabel: t[.loginSubmit],
            fields: [
                FormField(name: "login", label: t[.fieldLogin], value: form?.login ?? "", autocomplete: "username", required: true),
                FormField(name: "password", label: t[.fieldPassword], kind: .password, autocomplete: "current-password", required: true),
                FormField(name: "remember", label: t[.fieldRemember], kind: .checkbox, checked: form?.remember ?? false),
                FormField(name: "next", label: "", kind: .hidden, value: Self.safeNext(next) == "/" ? "" : next),
            ])
        if httpsHelp.offered(context) { page.footerLink = (TLSPaths.page, t[.tlsLink]) }
        return page
    }
}
