import HTTPServer
import Inventory

/// The single-use links: joining a household, setting a new password.
struct InvitationController {
    let accounts: Accounts
    let renderer: Renderer
    let cookies: SessionCookies

    func register(in router: inout Router<Endpoint>) {
        router.get(Route.join("{token}"), .open, use: joinForm)
        router.post(Route.join("{token}"), .open, use: join)
        router.get(Route.reset("{token}"), .open, use: resetForm)
        router.post(Route.reset("{token}"), .open, use: resetPassword)
    }

    /// The invitation's form: name, login, password.
    func joinForm(_ context: RequestContext) throws -> Response {
        guard let link = try accounts.link(token: context.parameter("token") ?? "", purpose: .invitation) else { return expired(context) }
        return renderer.response(joinPage(context, link, errors: [:]), context)
    }

    /// Joins the household as a new member and signs in.
    func join(_ context: RequestContext) throws -> Response {
        let token = context.parameter("token") ?? ""
        guard let link = try accounts.link(token: token, purpose: .invitation) else { return expired(context) }
        let form = try context.form(JoinForm.self)
        var errors = try accounts.memberProblems(name: form.name, login: form.login, password: form.password.text)
        if form.password != form.passwordConfirm { errors["password_confirm"] = .passwordsDiffer }
        do {
            guard errors.isEmpty else { throw InventoryError.validation(errors) }
            let session = try accounts.acceptInvitation(
                token: token, name: form.name, login: form.login, password: form.password.text,
                userAgent: context.request.headers["user-agent"] ?? "")
            // The browser's previous session, if any, ends: one browser, one member.
            if let previous = context.member { try accounts.logOut(sessionId: previous.sessionId) }
            let device = try accounts.trustBrowser(ofSession: session, presented: cookies.deviceToken(context.request))
            return cookies.over(context.request).signedIn(token: session, remember: false, device: device, to: Route.home)
        } catch InventoryError.validation(let fields) {
            return renderer.response(joinPage(context, link, posted: form, errors: context.locale.messages(.validation(fields))), context, status: 422)
        } catch InventoryError.notFound {
            return expired(context)
        }
    }

    /// The password reset link's form.
    func resetForm(_ context: RequestContext) throws -> Response {
        guard try accounts.link(token: context.parameter("token") ?? "", purpose: .passwordReset) != nil else { return expired(context) }
        return renderer.response(resetPage(context, errors: [:]), context)
    }

    /// The new password, typed twice; then the sign-in page says it is done.
    func resetPassword(_ context: RequestContext) throws -> Response {
        let token = context.parameter("token") ?? ""
        let form = try context.form(PasswordResetForm.self)
        do {
            if form.password != form.passwordConfirm {
                throw InventoryError.validation(["password_confirm": .passwordsDiffer])
            }
            try accounts.resetPassword(token: token, password: form.password.text)
            return .redirect(to: Route.login + "?reset=1")
        } catch InventoryError.validation(let fields) {
            return renderer.response(resetPage(context, errors: context.locale.messages(.validation(fields))), context, status: 422)
        } catch InventoryError.notFound {
            return expired(context)
        }
    }

    /// Expired, used or unknown links all look the same.
    func expired(_ context: RequestContext) -> Response {
        let t = context.locale
        return renderer.response(ErrorPage(status: 404, heading: t[.linkInvalidTitle], message: t[.linkInvalidMessage]), context, status: 404)
    }

    /// The invitation's form, empty or (`posted`) as it was sent.
    func joinPage(_ context: RequestContext, _ link: SingleUseLink, posted form: JoinForm? = nil, errors: [String: String]) -> FormPage {
        let t = context.locale
        return FormPage(
            heading: t.format(.joinHeading, ["household": link.householdName]),
            intro: t.format(.joinIntro, ["role": t[.role, link.role?.rawValue ?? "member"]]),
            action: Route.join(context.parameter("token") ?? ""), submitLabel: t[.joinSubmit],
            fields: [
                FormField(name: "name", label: t[.fieldName], value: form?.name ?? "", error: errors["name"], autocomplete: "name", required: true),
                FormField(
                    name: "login", label: t[.fieldLogin], value: form?.login ?? "", error: errors["login"], autocomplete: "username", required: true),
                FormField(
                    name: "password", label: t[.fieldPassword], kind: .password, error: errors["password"], hint: t[.passwordHint],
                    autocomplete: "new-password", required: true),
                FormField(
                    name: "password_confirm", label: t[.fieldPasswordConfirm], kind: .password, error: errors["password_confirm"],
                    autocomplete: "new-password", required: true),
            ])
    }

    func resetPage(_ context: RequestContext, errors: [String: String]) -> FormPage {
        let t = context.locale
        return FormPage(
            heading: t[.resetHeading], action: Route.reset(context.parameter("token") ?? ""), submitLabel: t[.resetSubmit],
            fields: [
                FormField(
                    name: "password", label: t[.fieldNewPassword], kind: .password, error: errors["password"], hint: t[.passwordHint],
                    autocomplete: "new-password", required: true),
                FormField(
                    name: "password_confirm", label: t[.fieldPasswordConfirm], kind: .password, error: errors["password_confirm"],
                    autocomplete: "new-password", required: true),
            ])
    }
}
