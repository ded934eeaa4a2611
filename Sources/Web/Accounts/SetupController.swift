import HTTPServer
import Inventory

/// First run: creates the household and its owner. Gone (404) once a household exists.
struct SetupController {
    let accounts: Accounts
    let renderer: Renderer
    let cookies: SessionCookies
    let setupCode: String?

    func register(in router: inout Router<Endpoint>) {
        router.get("/setup", .open) { context in
            guard try isAvailable() else { throw InventoryError.notFound }
            return renderer.response(page(context, errors: [:]), context)
        }
        router.post("/setup", .open) { context in
            guard try isAvailable(), let setupCode else { throw InventoryError.notFound }
            // The code is limited like a password: a few wrong ones, then a growing wait.
            let code = try accounts.checkSetupCode(context.field("setup_code"), expected: setupCode, peer: context.request.clientAddress)
            if case .throttled(let seconds) = code {
                let message =
                    seconds < 120
                    ? context.locale.format("login_throttled_seconds", ["seconds": "\(seconds)"])
                    : context.locale.format("login_throttled_minutes", ["minutes": "\((seconds + 59) / 60)"])
                var response = renderer.response(page(context, errors: ["setup_code": message]), context, status: 429)
                response.headers.append(("Retry-After", "\(seconds)"))
                return response
            }
            var errors = Accounts.setupProblems(
                householdName: context.field("household"), ownerName: context.field("name"), login: context.field("login"),
                password: context.rawField("password"))
            if code == .wrong { errors["setup_code"] = "setup_code_wrong" }
            if context.rawField("password") != context.rawField("password_confirm") { errors["password_confirm"] = "passwords_differ" }
            do {
                guard errors.isEmpty else { throw InventoryError.validation(errors) }
                let token = try accounts.setUp(
                    householdName: context.field("household"), ownerName: context.field("name"), login: context.field("login"),
                    password: context.rawField("password"), language: context.locale.code,
                    userAgent: context.request.headers["user-agent"] ?? "", folderNames: context.locale.starterFolderNames)
                let device = try accounts.trustBrowser(ofSession: token, presented: cookies.deviceToken(context.request))
                return cookies.over(context.request).signedIn(token: token, remember: false, device: device, to: "/")
            } catch let error as InventoryError {
                guard case .validation = error else { throw error }
                return renderer.response(page(context, errors: context.locale.messages(error)), context, status: 422)
            }
        }
    }

    func isAvailable() throws -> Bool {
        guard setupCode != nil else { return false }
        return try !accounts.hasHousehold()
    }

    func page(_ context: RequestContext, errors: [String: String]) -> FormPage {
        let t = context.locale
        func field(_ name: String, _ kind: FormField.Kind = .text, autocomplete: String? = nil, hint: String? = nil) -> FormField {
            FormField(
                name: name, label: t["field_\(name)"], kind: kind, value: context.field(name), error: errors[name], hint: hint,
                autocomplete: autocomplete, required: true)
        }
        return FormPage(
            heading: t["setup_heading"], intro: t["setup_intro"], action: "/setup", submitLabel: t["setup_submit"],
            fields: [
                field("household", hint: t["setup_household_hint"]),
                field("name", autocomplete: "name"),
                field("login", autocomplete: "username"),
                field("password", .password, autocomplete: "new-password", hint: t["password_hint"]),
                field("password_confirm", .password, autocomplete: "new-password"),
                field("setup_code", autocomplete: "off", hint: t["setup_code_hint"]),
            ])
    }
}
