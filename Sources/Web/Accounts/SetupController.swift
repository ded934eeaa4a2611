import HTTPServer
import Inventory

/// First run: creates the household and its owner. Gone (404) once a household exists.
struct SetupController {
    let accounts: Accounts
    let renderer: Renderer
    let cookies: SessionCookies
    let setupCode: String?

    func register(in router: inout Router<Endpoint>) {
        router.get(Route.setup, .open, use: form)
        router.post(Route.setup, .open, use: setUp)
    }

    /// The first-run form, while no household exists.
    func form(_ context: RequestContext) throws -> Response {
        guard try isAvailable() else { throw InventoryError.notFound }
        return renderer.response(page(context, errors: [:]), context)
    }

    /// Creates the household and its owner and signs the owner in, once the setup code is right
    /// and the form has no problem.
    func setUp(_ context: RequestContext) throws -> Response {
        guard try isAvailable(), let setupCode else { throw InventoryError.notFound }
        let form = try context.form(SetupForm.self)
        // The code is limited like a password: a few wrong ones, then a growing wait.
        let code = try accounts.checkSetupCode(form.setupCode, expected: setupCode, peer: context.request.clientAddress)
        if case .throttled(let seconds) = code { return throttled(context, form, seconds: seconds) }
        let errors = problems(form, code: code)
        do {
            guard errors.isEmpty else { throw InventoryError.validation(errors) }
            let token = try accounts.setUp(
                householdName: form.household, ownerName: form.name, login: form.login, password: form.password.text, language: context.locale.code,
                userAgent: context.request.headers["user-agent"] ?? "", timeZone: form.zone, folderNames: context.locale.starterFolderNames)
            let device = try accounts.trustBrowser(ofSession: token, presented: cookies.deviceToken(context.request))
            return cookies.over(context.request).signedIn(token: token, remember: false, device: device, to: Route.home)
        } catch let error as InventoryError {
            guard case .validation = error else { throw error }
            return renderer.response(page(context, posted: form, errors: context.locale.messages(error)), context, status: 422)
        }
    }

    /// What is wrong with the form, by field: the household's and owner's fields, the code, the
    /// password typed twice.
    private func problems(_ form: SetupForm, code: SetupCodeCheck) -> [String: FieldProblem] {
        var errors = Accounts.setupProblems(
            householdName: form.household, ownerName: form.name, login: form.login, password: form.password.text, timeZone: form.zone)
        switch code {
        case .wrong: errors["setup_code"] = .setupCodeWrong
        case .malformed(let problem): errors["setup_code"] = problem
        case .right, .throttled: break
        }
        if form.password != form.passwordConfirm { errors["password_confirm"] = .passwordsDiffer }
        return errors
    }

    /// The form again with how long to wait, and `Retry-After`.
    private func throttled(_ context: RequestContext, _ form: SetupForm, seconds: Int) -> Response {
        let message =
            seconds < 120
            ? context.locale.format(.loginThrottledSeconds, ["seconds": "\(seconds)"])
            : context.locale.format(.loginThrottledMinutes, ["minutes": "\((seconds + 59) / 60)"])
        var response = renderer.response(page(context, posted: form, errors: ["setup_code": message]), context, status: 429)
        response.headers.append(("Retry-After", "\(seconds)"))
        return response
    }

    func isAvailable() throws -> Bool {
        guard setupCode != nil else { return false }
        return try !accounts.hasHousehold()
    }

    /// The form, empty or (`posted`) as it was sent; passwords are never shown again.
    func page(_ context: RequestContext, posted form: SetupForm? = nil, errors: [String: String]) -> FormPage {
        let t = context.locale
        func field(_ name: String, _ value: String?, _ kind: FormField.Kind = .text, autocomplete: String? = nil, hint: String? = nil) -> FormField {
            FormField(
                name: name, label: t[.field, name], kind: kind, value: value ?? "", error: errors[name], hint: hint, autocomplete: autocomplete,
                required: true)
        }
        return FormPage(
            heading: t[.setupHeading], intro: t[.setupIntro], action: Route.setup, submitLabel: t[.setupSubmit],
            fields: [
                field("household", form?.household, hint: t[.setupHouseholdHint]),
                timeZoneField(context, posted: form, error: errors["time_zone"]),
                field("name", form?.name, autocomplete: "name"),
                field("login", form?.login, autocomplete: "username"),
                field("password", nil, .password, autocomplete: "new-password", hint: t[.passwordHint]),
                field("password_confirm", nil, .password, autocomplete: "new-password"),
                field("setup_code", form?.setupCode, autocomplete: "off", hint: t[.setupCodeHint]),
            ])
    }

    /// The household's time zone: the server's, which the browser's replaces on a first visit
    /// (`data-fill`, Public/js/app.js); what was posted when the form comes back.
    func timeZoneField(_ context: RequestContext, posted form: SetupForm?, error: String?) -> FormField {
        let t = context.locale
        let zone = form?.zone ?? HouseholdSettings.serverTimeZone
        var field = FormField(
            name: "time_zone", label: t[.fieldTimeZone], kind: .select, error: error, hint: t[.setupTimeZoneHint],
            options: HouseholdSettings.timeZoneChoices(keeping: "").map {
                .init(value: $0, label: $0.replacingOccurrences(of: "_", with: " "), selected: $0 == zone)
            })
        if form == nil { field.fill = "time-zone" }
        return field
    }
}
