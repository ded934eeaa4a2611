import HTTPServer
import Inventory

/// A member's own account: name, language, password, signed-in devices. Viewers too.
struct AccountController {
    let accounts: Accounts
    let renderer: Renderer
    let cookies: SessionCookies
    let feeds: CalendarFeeds
    /// How members reach the server, for the feed address: https behind a TLS proxy.
    let scheme: String
    /// Whether to point to /tls (the page came over HTTP and there is a CA to install).
    var httpsHelp = HTTPSHelp(file: nil)

    func register(in router: inout Router<Endpoint>) {
        router.get(Route.Account.path, .signedIn, use: show)
        router.post(Route.Account.profile, .signedIn, use: saveProfile)
        router.post(Route.Account.password, .signedIn, use: changePassword)
        router.post(Route.Account.calendarFeed, .signedIn, use: createFeed)
        router.post(Route.Account.calendarFeedDelete, .signedIn, use: removeFeed)
        router.post(Route.Account.calendarFeedMeals, .signedIn, use: saveFeedMeals)
        router.post(Route.Account.Session.pattern.revoke, .signedIn, use: revokeSession)
        router.post(Route.Account.revokeOtherSessions, .signedIn, use: revokeOtherSessions)
        router.post(Route.Account.tokens, .signedIn, use: createToken)
        router.post(Route.Account.Token.pattern.revoke, .signedIn, use: revokeToken)
    }

    /// The account page.
    func show(_ context: RequestContext) throws -> Response {
        renderer.response(try page(context), context)
    }

    /// The member's name and language (a language no catalog has is the browser's).
    func saveProfile(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        let form = try context.form(ProfileForm.self)
        do {
            try accounts.updateProfile(
                memberId: member.memberId, name: form.name,
                language: renderer.localizations.catalogs[form.language] == nil ? nil : form.language)
            return .redirect(to: Route.Account.path + "?saved=profile")
        } catch let error as InventoryError {
            guard case .validation = error else { throw error }
            return renderer.response(try page(context, profile: form, profileErrors: context.locale.messages(error)), context, status: 422)
        }
    }

    /// A new password, typed twice, after the current one; this session stays, the others end.
    func changePassword(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        let form = try context.form(PasswordChangeForm.self)
        do {
            if form.password != form.passwordConfirm {
                throw InventoryError.validation(["password_confirm": .passwordsDiffer])
            }
            try accounts.changePassword(
                memberId: member.memberId, current: form.currentPassword.text,
                new: form.password.text, keepingSession: member.sessionId,
                peer: context.request.clientAddress)
            return .redirect(to: Route.Account.path + "?saved=password")
        } catch let error as InventoryError {
            guard case .validation = error else { throw error }
            return renderer.response(try page(context, passwordErrors: context.locale.messages(error)), context, status: 422)
        }
    }

    /// A new calendar feed address (replacing the old one).
    func createFeed(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        let token = try feeds.create(memberId: member.memberId)
        // Shown in this answer only (only its hash is stored), never in an address the browser
        // keeps; reloading asks "send again?" first and then makes another address.
        // (Every page is `no-store`: App.finish.)
        return renderer.response(try page(context, newFeedToken: token), context)
    }

    func removeFeed(_ context: RequestContext) throws -> Response {
        try feeds.remove(memberId: try context.signedIn.memberId)
        return .redirect(to: Route.Account.path + "?saved=feed_removed#feed")
    }

    /// Whether the member's feed carries the meal plan (a checkbox: absent is no).
    func saveFeedMeals(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        try feeds.setMeals(context.request.form["meals"] == "1", memberId: member.memberId)
        return .redirect(to: Route.Account.path + "?saved=feed_meals#feed")
    }

    /// Signs one of the member's devices out.
    func revokeSession(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        try accounts.revokeSession(try context.id(), memberId: member.memberId)
        return .redirect(to: Route.Account.path)
    }

    /// Signs every device but this one out.
    func revokeOtherSessions(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        try accounts.revokeOtherSessions(memberId: member.memberId, keeping: member.sessionId)
        return .redirect(to: Route.Account.path + "?saved=devices")
    }

    /// A new personal access token: its secret shown in this answer only (only its hash is kept).
    /// A refused name or scope comes back beside its field, with what was typed.
    func createToken(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        let form = TokenForm(name: context.field("name"), scope: context.field("scope"))
        do {
            let made = try accounts.createToken(name: form.name, scope: form.scope, memberId: member.memberId)
            return renderer.response(try page(context, newToken: (made.secret, made.token.name)), context)
        } catch let error as InventoryError {
            guard case .validation = error else { throw error }
            return renderer.response(try page(context, tokenForm: form, tokenErrors: context.locale.messages(error)), context, status: 422)
        }
    }

    /// Revokes one of the member's tokens; the next request with it is refused.
    func revokeToken(_ context: RequestContext) throws -> Response {
        try accounts.revokeToken(try context.id(), memberId: try context.signedIn.memberId)
        return .redirect(to: Route.Account.path + "?saved=token_revoked#tokens")
    }

    func page(
        _ context: RequestContext, profile: ProfileForm? = nil, profileErrors: [String: String] = [:], passwordErrors: [String: String] = [:],
        newFeedToken: String? = nil, tokenForm: TokenForm? = nil, tokenErrors: [String: String] = [:], newToken: (secret: String, name: String)? = nil
    ) throws -> AccountPage {
        let member = try context.signedIn
        let t = context.locale
        // Only the profile form's own answer shows what was typed in it.
        let name = profile?.name ?? member.memberName
        let language = profile?.language ?? member.language ?? ""
        let devices = try accounts.devices(memberId: member.memberId, currentSessionId: member.sessionId).map {
            AccountPage.Device(
                id: $0.id, label: DisplayFormat.device($0.userAgent, locale: t),
                signedIn: DisplayFormat.dateTime($0.createdAt, timeZone: member.timeZone, locale: t),
                lastSeen: DisplayFormat.dateTime($0.lastSeenAt, timeZone: member.timeZone, locale: t), isCurrent: $0.isCurrent)
        }
        let saved = context.request.query["saved"].flatMap {
            ["profile", "password", "devices", "feed_removed", "feed_meals", "token_revoked"].contains($0) ? t[.saved, $0] : nil
        }
        // A new feed address is shown once, in the answer to the POST that made it.
        var feed = AccountPage.Feed(
            createdAt: try feeds.createdAt(memberId: member.memberId).map {
                t.format(.feedCreated, ["date": DisplayFormat.dateTime($0, timeZone: member.timeZone, locale: t)])
            }, meals: try feeds.includesMeals(memberId: member.memberId) ?? true)
        if let token = newFeedToken {
            let host = context.request.headers["host"] ?? "localhost"
            feed.webcal = "webcal://\(host)" + Route.calendarFeed(token)
            feed.web = "\(context.request.isSecure ? "https" : scheme)://\(host)" + Route.calendarFeed(token)
        }
        return AccountPage(
            heading: t[.accountHeading], saved: saved,
            profileFields: [
                FormField(
                    name: "name", label: t[.fieldName], value: name, error: profileErrors["name"], autocomplete: "name", required: true, maxLength: 100),
                FormField(
                    name: "language", label: t[.fieldLanguage], kind: .select,
                    options: t.languageOptions(selected: language.isEmpty ? nil : language, among: renderer.localizations.languages)),
            ],
            passwordFields: [
                FormField(
                    name: "current_password", label: t[.fieldCurrentPassword], kind: .password, error: passwordErrors["current_password"],
                    autocomplete: "current-password", required: true),
                FormField(
                    name: "password", label: t[.fieldNewPassword], kind: .password, error: passwordErrors["password"], hint: t[.passwordChangeHint],
                    autocomplete: "new-password", required: true),
                FormField(
                    name: "password_confirm", label: t[.fieldPasswordConfirm], kind: .password, error: passwordErrors["password_confirm"],
                    autocomplete: "new-password", required: true),
            ],
            devices: devices, feed: feed, offersHTTPS: httpsHelp.offered(context),
            tokens: try tokens(context, member: member, form: tokenForm ?? TokenForm(name: "", scope: ""), errors: tokenErrors, newToken: newToken))
    }

    /// The member's tokens, the form for a new one, and a new one's secret right after it was made.
    func tokens(
        _ context: RequestContext, member: SignedIn, form: TokenForm, errors: [String: String], newToken: (secret: String, name: String)?
    ) throws -> AccountPage.Tokens {
        let t = context.locale
        let scopes: [TokenScope] = member.role.canWrite ? TokenScope.allCases : [.read]
        let chosen = form.scope.isEmpty ? (member.role.canWrite ? TokenScope.all.rawValue : TokenScope.read.rawValue) : form.scope
        let held = try accounts.tokens(of: member.memberId).map { token in
            AccountPage.Token(
                id: token.id, name: token.name, scope: t[.tokenScope, token.scope.rawValue],
                created: t.format(.tokensCreated, ["date": DisplayFormat.dateTime(token.createdAt, timeZone: member.timeZone, locale: t)]),
                lastUse: token.lastUsedAt.map {
                    t.format(
                        .tokensLastUsed,
                        ["date": DisplayFormat.dateTime($0, timeZone: member.timeZone, locale: t), "address": token.lastUsedAddress ?? ""])
                } ?? t[.tokensNeverUsed])
        }
        return AccountPage.Tokens(
            isViewer: !member.role.canWrite, held: held,
            fresh: newToken.map { AccountPage.FreshToken(label: t.format(.tokensNewLabel, ["name": $0.name]), secret: $0.secret) },
            fields: [
                FormField(
                    name: "name", label: t[.tokensNameLabel], value: form.name, error: errors["name"], hint: t[.tokensNameHint], required: true,
                    maxLength: 100),
                FormField(
                    name: "scope", label: t[.tokensScopeLabel], kind: .select, error: errors["scope"],
                    options: scopes.map { FormField.Option(value: $0.rawValue, label: t[.tokenScope, $0.rawValue], selected: $0.rawValue == chosen) }),
            ])
    }
}

/// The member's own settings: profile, password, calendar feed, devices
/// (`Templates/account.mustache`, compiled).
struct AccountPage: CompiledPage {
    struct Device: Sendable {
        let id: DeviceSession.ID
        let label: String
        let signedIn: String
        let lastSeen: String
        let isCurrent: Bool
    }

    /// The member's calendar feed: whether there is one, and its address right after it was made.
    struct Feed: Sendable {
        let createdAt: String?
        /// The feed carries the meal plan.
        var meals = true
        var webcal: String?
        var web: String?

        var exists: Bool { createdAt != nil }
        var isNew: Bool { webcal != nil }
    }

    let heading: String
    let saved: String?
    let profileFields: [FormField]
    let passwordFields: [FormField]
    let devices: [Device]
    var feed = Feed(createdAt: nil)
    var offersHTTPS = false
    var tokens = Tokens(isViewer: false, held: [], fresh: nil, fields: [])

    /// The member's personal access tokens and the form for a new one.
    struct Tokens: Sendable {
        let isViewer: Bool
        let held: [Token]
        /// A token made by this answer, shown once.
        let fresh: FreshToken?
        let fields: [FormField]
    }

    struct Token: Sendable {
        let id: AccessToken.ID
        let name: String
        let scope: String
        let created: String
        let lastUse: String
    }

    struct FreshToken: Sendable {
        let label: String
        let secret: String
    }

    func title(_ t: Catalog) -> String { heading }

    var hasOtherDevices: Bool { devices.count > 1 }
}
