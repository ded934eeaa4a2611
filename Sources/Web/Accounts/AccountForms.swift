import Inventory

/// The forms the account, session, setup, invitation and settings controllers read (decoded by
/// `FormDecoder`). Passwords are `Verbatim`: their spaces are part of them.

/// Signing in.
struct LoginForm: Decodable {
    var login: String
    var password: Verbatim
    var remember: Bool
    /// Where to go once signed in (see `SessionController.safeNext`).
    var next: String
}

/// First run: the household, its owner and the setup code.
struct SetupForm: Decodable {
    var household: String
    var name: String
    var login: String
    var password: Verbatim
    var passwordConfirm: Verbatim
    var setupCode: String
    /// The browser's zone (chosen by script) or the person's choice; empty: the server's.
    var timeZone: String

    /// The zone posted, else the server's own.
    var zone: String { timeZone.isEmpty ? HouseholdSettings.serverTimeZone : timeZone }
}

/// Joining a household through an invitation.
struct JoinForm: Decodable {
    var name: String
    var login: String
    var password: Verbatim
    var passwordConfirm: Verbatim
}

/// A new password from a reset link.
struct PasswordResetForm: Decodable {
    var password: Verbatim
    var passwordConfirm: Verbatim
}

/// The member's name and language.
struct ProfileForm: Decodable {
    var name: String
    /// A language code; one no catalog has means the browser's.
    var language: String
}

/// A new personal access token: what it is for and what it may do (`TokenScope`).
struct TokenForm {
    var name: String
    var scope: String
}

/// A new password, after the current one.
struct PasswordChangeForm: Decodable {
    var currentPassword: Verbatim
    var password: Verbatim
    var passwordConfirm: Verbatim
}

/// The household's name, time zone and how many days "soon" is.
struct HouseholdForm: Decodable {
    var household: String
    var timeZone: String
    var dueSoonDays: String
}

/// The online barcode look-up: on with its address, or off.
struct LookupForm: Decodable {
    var lookupEnabled: Bool
    var productLookupUrl: String
}

/// Whether members' recipe imports may reach the home network.
struct HomeNetworkForm: Decodable {
    var allowed: Bool
}

/// A role: for a new invitation, or a member's new one.
struct RoleForm: Decodable {
    var role: String
}

/// The push channel reminders go out on.
struct PushChannelForm: Decodable {
    var kind: String
    var url: String
    var topic: String
    /// Empty keeps the stored token (see `PushChannelInput`).
    var accessToken: String
    var clearAccessToken: Bool
    var digestHour: String

    var input: PushChannelInput {
        PushChannelInput(
            kind: kind, url: url, topic: topic, accessToken: accessToken, clearAccessToken: clearAccessToken, digestHour: digestHour)
    }
}
