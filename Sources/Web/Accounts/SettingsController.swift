import Backups
import Foundation
import HTTPServer
import Inventory

/// The owner's settings, all of /settings: the household, the online look-up, the push channel and
/// reminders, invitations and members.
struct SettingsController {
    let accounts: Accounts
    let settings: HouseholdSettings
    let keepRules: KeepRules
    let renderer: Renderer
    /// How members reach the server, for the invitation link: https behind a TLS proxy.
    let scheme: String
    let push: PushChannels
    let outbox: Outbox
    let schedule: ReminderSchedule
    /// How long "Send a test" waits for the engine's first attempt.
    let pushTestWait: Duration
    /// "Back up now" and the download of the newest archive; nil when the server makes no backups.
    var backupControl: (any BackupControl)? = nil
    /// Whether the operator allows private outbound at all (`--allow-private-outbound`), for the
    /// home-network card.
    var operatorAllowsPrivate = false

    func register(in router: inout Router<Endpoint>) {
        router.get(Route.Settings.path, .owner, use: show)
        router.post(Route.Settings.household, .owner, use: saveHousehold)
        router.post(Route.Settings.lookup, .owner, use: saveLookup)
        router.post(Route.Settings.homeNetwork, .owner, use: saveHomeNetwork)
        router.post(Route.Settings.push, .owner, use: savePush)
        router.post(Route.Settings.pushDelete, .owner, use: removePush)
        router.post(Route.Settings.pushTest, .owner, use: testPush)
        router.post(Route.Settings.rebuildReminders, .owner, use: rebuildReminders)
        router.post(Route.Settings.invitations, .owner, use: invite)
        router.post(Route.Settings.Invitation.pattern.cancel, .owner, use: cancelInvitation)
        router.post(Route.Settings.Member.pattern.role, .owner, use: changeRole)
        router.post(Route.Settings.Member.pattern.remove, .owner, use: removeMember)
    }

    /// The settings page.
    func show(_ context: RequestContext) throws -> Response {
        renderer.response(try page(context), context)
    }

    /// The household's name, time zone and how many days "soon" is.
    func saveHousehold(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        let form = try context.form(HouseholdForm.self)
        do {
            try settings.update(member.household, name: form.household, timeZone: form.timeZone, dueSoonDays: form.dueSoonDays)
            return .redirect(to: Route.Settings.path + "?saved=household#household")
        } catch InventoryError.validation(let fields) {
            return renderer.response(
                try page(context, posted: .household(form), householdErrors: context.locale.messages(fields)), context, status: 422)
        }
    }

    /// The online barcode look-up: on (with its address) or off.
    func saveLookup(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        let form = try context.form(LookupForm.self)
        do {
            try settings.setProductLookup(member.household, url: form.lookupEnabled ? form.productLookupUrl : nil)
            return .redirect(to: Route.Settings.path + "?saved=lookup#lookup")
        } catch InventoryError.validation(let fields) {
            return renderer.response(
                try page(context, posted: .lookup(form), lookupErrors: context.locale.messages(fields)), context, status: 422)
        }
    }

    /// Whether members' recipe imports may reach the home network.
    func saveHomeNetwork(_ context: RequestContext) throws -> Response {
        try settings.setMemberFetchesPrivate(try context.signedIn.household, allowed: try context.form(HomeNetworkForm.self).allowed)
        return .redirect(to: Route.Settings.path + "?saved=home_network#home-network")
    }

    /// The push channel reminders go out on.
    func savePush(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        let input = try context.form(PushChannelForm.self).input
        do {
            try push.save(input, in: member.household)
            return .redirect(to: Route.Settings.path + "?saved=push#push")
        } catch InventoryError.validation(let fields) {
            return renderer.response(
                try page(context, posted: .push(input), pushErrors: context.locale.messages(fields)), context, status: 422)
        }
    }

    func removePush(_ context: RequestContext) throws -> Response {
        try push.remove(in: try context.signedIn.household)
        return .redirect(to: Route.Settings.path + "?saved=push_removed#push")
    }

    /// "Send a test": a message through the channel, and a moment's wait for the engine's answer.
    func testPush(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        let t = context.locale
        do {
            let id = try outbox.enqueueTest(
                in: member.household, title: t[.pushTestTitle],
                body: t.format(.pushTestBody, ["household": member.householdName]))
            try awaitFirstAttempt(id, in: member.household)
            return .redirect(to: Route.Settings.path + "?test=\(id)#push")
        } catch InventoryError.validation(let fields) {
            return renderer.response(try page(context, pushErrors: context.locale.messages(fields)), context, status: 422)
        }
    }

    /// The engine sends a message on its own task; wait a moment for its answer, never for long
    /// (the page "Send a test" redirects to says "on its way" when the answer is not there yet).
    private func awaitFirstAttempt(_ id: PushMessage.ID, in scope: HouseholdScope) throws {
        guard pushTestWait > .zero else { return }
        _ = try waitForTask { () async -> Result<PushMessage?, any Error> in
            do { return .success(try await outbox.awaitAttempt(id, in: scope, timeout: pushTestWait)) } catch {
                return .failure(error)
            }
        }.get()
    }

    /// Reminders made again from the items' due dates.
    func rebuildReminders(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        let report = try schedule.rebuild(in: member.household, by: member.memberId)
        return .redirect(to: Route.Settings.path + "?rebuilt=\(report.dropped)-\(report.recreated)-\(report.cleared)#reminders")
    }

    /// A new invitation link, shown in this answer only.
    func invite(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        guard let role = Role(rawValue: try context.form(RoleForm.self).role) else {
            return renderer.response(try page(context, inviteError: context.locale[.roleInvalid]), context, status: 422)
        }
        let token = try accounts.invite(in: member.household, role: role)
        // The link is in this answer only, never in an address (history and reloads keep those).
        // With JavaScript the address bar then says /settings#invite, so a reload is a GET that
        // shows no link; without it, reloading asks "send again?" first and then makes another link.
        let host = context.request.headers["host"] ?? "localhost"
        // (Every page is `no-store`: App.finish.)
        return renderer.response(try page(context, newLink: "\(context.request.isSecure ? "https" : scheme)://\(host)" + Route.join(token)), context)
    }

    func cancelInvitation(_ context: RequestContext) throws -> Response {
        try accounts.cancelInvitation(id: try context.id(), in: try context.signedIn.household)
        return .redirect(to: Route.Settings.path + "#invite")
    }

    func changeRole(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        let id: Member.ID = try context.id()
        do {
            try accounts.changeRole(memberId: id, to: try context.form(RoleForm.self).role, in: member.household)
            return .redirect(to: Route.Settings.path + "#members")
        } catch InventoryError.validation(let fields) {
            return renderer.response(try page(context, membersError: fields["role"].map { context.locale[problem: $0] }), context, status: 422)
        }
    }

    func removeMember(_ context: RequestContext) throws -> Response {
        let member = try context.signedIn
        do {
            try accounts.removeMember(memberId: try context.id(), in: member.household)
            return .redirect(to: Route.Settings.path + "#members")
        } catch InventoryError.validation(let fields) {
            return renderer.response(try page(context, membersError: fields["role"].map { context.locale[problem: $0] }), context, status: 422)
        }
    }

    /// A settings form that came back with an error: the page shows it as typed.
    enum PostedForm {
        case household(HouseholdForm)
        case lookup(LookupForm)
        case push(PushChannelInput)
    }

    /// The push channel form, its status line and the outcome of a test or a rebuild.
    func pushSection(
        _ context: RequestContext, _ me: SignedIn, _ contents: SettingsPageContents, posted: PushChannelInput?, errors: [String: String],
        saved: String?
    ) -> PushSection {
        let t = context.locale
        let channel = contents.pushChannel
        let input =
            posted
            ?? PushChannelInput(
                kind: channel?.kind.rawValue ?? "ntfy", url: channel?.url ?? "", topic: channel?.topic ?? "",
                digestHour: channel?.digestHour.map(String.init) ?? "")
        let hasToken = channel?.accessToken != nil
        var fields = [
            FormField(
                name: "kind", label: t[.fieldPushKind], kind: .select, error: errors["kind"],
                options: PushKind.allCases.map { .init(value: $0.rawValue, label: t[.pushKind, $0.rawValue], selected: $0.rawValue == input.kind) }),
            FormField(
                name: "url", label: t[.fieldPushUrl], value: input.url, error: errors["url"], hint: t[.pushUrlHint],
                inputType: "url", maxLength: 500),
            FormField(name: "topic", label: t[.fieldPushTopic], value: input.topic, error: errors["topic"], hint: t[.pushTopicHint], maxLength: 64),
            // The token is never sent back to the page: "set" says there is one.
            FormField(
                name: "access_token", label: t[.fieldPushToken], kind: .password, error: errors["access_token"],
                hint: hasToken ? t[.pushTokenSet] : t[.pushTokenHint], autocomplete: "off"),
        ]
        if hasToken {
            fields.append(FormField(name: "clear_access_token", label: t[.pushTokenClear], kind: .checkbox, checked: input.clearAccessToken))
        }
        fields.append(
            FormField(
                name: "digest_hour", label: t[.fieldDigestHour], kind: .select, error: errors["digest_hour"], hint: t[.digestHourHint],
                options: [FormField.Option(value: "", label: t[.digestNone], selected: input.digestHour.isEmpty)]
                    + (0...23).map { .init(value: "\($0)", label: "\($0):00", selected: input.digestHour == "\($0)") }))

        var lines: [String] = []
        var problem: PushFailureText?
        if let status = contents.pushStatus {
            let when = { (instant: Timestamp) in DisplayFormat.dateTime(instant, timeZone: me.timeZone, locale: t) }
            lines.append(status.lastSentAt.map { t.format(.pushLastSent, ["date": when($0)]) } ?? t[.pushNeverSent])
            if let error = status.lastError {
                problem = PushFailureText(error, t, in: "push_last_error", ["date": status.lastErrorAt.map(when) ?? ""])
            }
            if status.waiting > 0, let next = status.nextRetryAt {
                lines.append(t.format(named: status.waiting == 1 ? "push_waiting_one" : "push_waiting", ["count": "\(status.waiting)", "date": when(next)]))
            }
            if status.failed > 0 { lines.append(t.format(.pushGivenUp, ["count": "\(status.failed)"])) }
        }

        // The outcome of "Send a test", on the page it redirects to.
        var testResult: PushTestResult?
        if let message = contents.testMessage {
            switch message.state {
            case .sent: testResult = PushTestResult(message: t[.pushTestSent])
            case .failed: testResult = PushTestResult(failure: PushFailureText(message.lastError ?? .connectionFailed, t, in: "push_test_failed"))
            case .pending: testResult = PushTestResult(message: t[.pushTestPending])
            }
        }
        var rebuilt: String?
        if let report = context.request.query["rebuilt"] {
            let counts = report.split(separator: "-").compactMap { Int($0) }
            if counts.count == 3 {
                rebuilt = t.format(.rebuildReport, ["dropped": "\(counts[0])", "recreated": "\(counts[1])", "cleared": "\(counts[2])"])
            }
        }
        return PushSection(
            fields: fields, configured: channel != nil, saved: saved, statusLines: lines, problem: problem, testResult: testResult,
            formError: errors["push"], testError: errors["push_test"], rebuilt: rebuilt)
    }

    func page(
        _ context: RequestContext, posted: PostedForm? = nil, membersError: String? = nil, inviteError: String? = nil, householdErrors: [String: String] = [:],
        pushErrors: [String: String] = [:], lookupErrors: [String: String] = [:], newLink: String? = nil
    ) throws -> SettingsPage {
        let me = try context.signedIn
        let t = context.locale
        let contents = try accounts.settingsPage(in: me.household, testMessage: context.request.query["test"].flatMap(PushMessage.ID.init))
        let household = contents.household
        var householdForm: HouseholdForm?
        var lookupForm: LookupForm?
        var pushInput: PushChannelInput?
        switch posted {
        case .household(let form): householdForm = form
        case .lookup(let form): lookupForm = form
        case .push(let input): pushInput = input
        case nil: break
        }
        // The stored zone is always offered and, until changed, selected: saving the name never moves it.
        let zone = householdForm?.timeZone ?? household.timeZone
        let householdFields = [
            FormField(
                name: "household", label: t[.fieldHousehold], value: householdForm?.household ?? household.name,
                error: householdErrors["household"], required: true, maxLength: 100),
            FormField(
                name: "time_zone", label: t[.fieldTimeZone], kind: .select, error: householdErrors["time_zone"],
                options: HouseholdSettings.timeZoneChoices(keeping: household.timeZone).map {
                    .init(value: $0, label: $0.replacingOccurrences(of: "_", with: " "), selected: $0 == zone)
                }),
            FormField(
                name: "due_soon_days", label: t[.fieldDueSoonDays], value: householdForm?.dueSoonDays ?? "\(household.dueSoonDays)",
                error: householdErrors["due_soon_days"], hint: t[.dueSoonHint], inputType: "number", maxLength: 2),
        ]
        let members = contents.members.map { member in
            SettingsPage.Row(
                id: member.id, name: member.name, login: member.login, role: t[.role, member.role.rawValue],
                roleOptions: t.roleOptions(selected: member.role), isMe: member.id == me.memberId)
        }
        let invitations = contents.invitations.map {
            SettingsPage.Invitation(
                id: $0.id, role: t[.role, $0.role.rawValue],
                expires: DisplayFormat.dateTime($0.expiresAt, timeZone: me.timeZone, locale: t))
        }
        // Each notice shows in its own section, where the redirect's #fragment lands.
        let saved = context.request.query["saved"]
        let savedText = { (key: String) in saved == key ? t[.saved, key] : nil }
        // Online barcode look-up: off unless the owner turns it on; the address a posted form had is kept.
        let lookupFields = [
            FormField(
                name: "lookup_enabled", label: t[.fieldLookupEnabled], kind: .checkbox,
                checked: lookupForm?.lookupEnabled ?? (household.productLookupUrl != nil)),
            FormField(
                name: "product_lookup_url", label: t[.fieldLookupUrl],
                value: lookupForm?.productLookupUrl ?? household.productLookupUrl ?? HouseholdSettings.defaultProductLookupURL,
                error: lookupErrors["product_lookup_url"], hint: t[.lookupUrlHint], inputType: "url", maxLength: 300),
        ]
        return SettingsPage(
            heading: t[.membersHeading], membersError: membersError, members: members, invitations: invitations, newLink: newLink,
            inviteRoles: t.roleOptions(selected: .member), inviteError: inviteError, householdFields: householdFields,
            householdSaved: saved == "household" ? t[.savedProfile] : nil,
            push: pushSection(context, me, contents, posted: pushInput, errors: pushErrors, saved: savedText("push") ?? savedText("push_removed")),
            lookupFields: lookupFields, lookupSaved: savedText("lookup"),
            autobackup: AutoBackupSection(
                BackupStatus(contents.backups), timeZone: me.timeZone, locale: t, control: backupControl,
                mayDownload: contents.holdsOnlyHousehold, asked: context.request.query["backup"]),
            usedUp: UsedUpSection(household: household, shoppingLists: contents.shoppingLists, query: context.request.query, t: t),
            keep: KeepSettingsSection(
                try keepRules.settings(in: me.household), shoppingLists: contents.shoppingLists, query: context.request.query, t: t),
            homeNetwork: HomeNetworkSection(
                allowed: household.memberFetchesPrivate, operatorAllows: operatorAllowsPrivate, saved: savedText("home_network")))
    }
}

/// Whether members' recipe imports may reach the home network (see `MemberFetches`).
struct HomeNetworkSection: Sendable {
    let allowed: Bool
    /// The server was started with `--allow-private-outbound`; without it the setting waits.
    let operatorAllows: Bool
    let saved: String?
}

/// The owner's reminder settings: the push channel, its status, test and rebuild outcomes.
struct PushSection: Sendable {
    let fields: [FormField]
    let configured: Bool
    /// "Saved" or "Removed", after the redirect back to #push.
    let saved: String?
    let statusLines: [String]
    /// Why the last message did not go out.
    let problem: PushFailureText?
    let testResult: PushTestResult?
    let formError: String?
    /// Beside "Send a test": too many tests lately.
    let testError: String?
    let rebuilt: String?
}

struct SettingsPage: CompiledPage {
    struct Row: Sendable {
        let id: Member.ID
        let name: String
        let login: String
        let role: String
        let roleOptions: [FormField.Option]
        let isMe: Bool
    }

    struct Invitation: Sendable {
        let id: SingleUseLink.ID
        let role: String
        let expires: String
    }

    let heading: String
    /// Beside the members list: a role change or removal that was refused.
    let membersError: String?
    let members: [Row]
    let invitations: [Invitation]
    let newLink: String?
    let inviteRoles: [FormField.Option]
    var inviteError: String? = nil
    var householdFields: [FormField] = []
    var householdSaved: String? = nil
    var push: PushSection? = nil
    var lookupFields: [FormField] = []
    var lookupSaved: String? = nil
    var autobackup: AutoBackupSection? = nil
    var usedUp: UsedUpSection? = nil
    var keep: KeepSettingsSection? = nil
    var homeNetwork: HomeNetworkSection? = nil

    func title(_ t: Catalog) -> String { heading }

    var hasInvitations: Bool { !invitations.isEmpty }
}
