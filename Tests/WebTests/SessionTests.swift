import Foundation
import HTTPServer
import Inventory
import Testing

@testable import Web

@Suite("Logins, cookies and CSRF over the app")
struct SessionTests {
    func logIn(
        _ fixture: HouseholdFixture, login: String = "ken", password: String = HouseholdFixture.password, remember: Bool = false, as session: String? = nil
    ) throws -> Response {
        try fixture.send("POST", "/login", as: session, form: [("login", login), ("password", password)] + (remember ? [("remember", "1")] : []))
    }

    @Test func theSessionCookieIsHttpOnlyLaxAndLivesAsChosen() async throws {
        let fixture = try await HouseholdFixture()
        let browserSession = try logIn(fixture)
        #expect(browserSession.status == 303)
        let cookie = try #require(browserSession.setCookies.first { $0.hasPrefix("zaiko_session=") })
        #expect(cookie.contains("; HttpOnly"))
        #expect(cookie.contains("; SameSite=Lax"))
        #expect(cookie.contains("; Path=/"))
        #expect(!cookie.contains("Max-Age"))
        #expect(!cookie.contains("Secure"))

        let remembered = try #require(try logIn(fixture, remember: true).setCookies.first { $0.hasPrefix("zaiko_session=") })
        #expect(remembered.contains("Max-Age=2592000"))

        let secure = try await HouseholdFixture(secureCookies: true)
        #expect(try logIn(secure).setCookies.first { $0.hasPrefix("zaiko_session=") }?.contains("; Secure") == true)
    }

    @Test func aSignInLeavesALongLivedDeviceCookieThatGetsTheOwnerPastASpray() async throws {
        let fixture = try await HouseholdFixture()
        let signedIn = try logIn(fixture, login: "aki")
        let cookie = try #require(signedIn.setCookies.first { $0.hasPrefix("zaiko_device=") })
        #expect(cookie.contains("; HttpOnly"))
        #expect(cookie.contains("; SameSite=Lax"))
        #expect(cookie.contains("; Max-Age=\(Int(Accounts.trustedDeviceLifetime))"))
        let device = try #require(signedIn.cookie("zaiko_device"))
        let secure = try await HouseholdFixture(secureCookies: true)
        #expect(try logIn(secure).setCookies.first { $0.hasPrefix("zaiko_device=") }?.contains("; Secure") == true)
        // Joining by invitation signs in too, and trusts the browser as a sign-in does.
        let invitation = try fixture.accounts.invite(in: try fixture.accounts.session(token: fixture.owner)!.household, role: .member)
        let joined = try fixture.send(
            "POST", "/join/\(invitation)", as: nil,
            form: [("name", "Mei"), ("login", "mei"), ("password", "a long enough phrase"), ("password_confirm", "a long enough phrase")])
        #expect(joined.status == 303)
        #expect(joined.cookie("zaiko_device") != nil)

        // A neighbour with five addresses fills the account's bucket.
        for round in 0..<8 {
            for address in 1...5 {
                _ = try fixture.send(
                    "POST", "/login", as: nil, form: [("login", "aki"), ("password", "guess \(round)")], from: "198.51.100.\(address)")
            }
        }
        let newBrowser = try fixture.send("POST", "/login", as: nil, form: [("login", "aki"), ("password", HouseholdFixture.password)])
        #expect(newBrowser.status == 429)
        let ownBrowser = try fixture.send(
            "POST", "/login", as: nil, form: [("login", "aki"), ("password", HouseholdFixture.password)], cookies: ["zaiko_device=\(device)"])
        #expect(ownBrowser.status == 303, "the browser the owner signed in with before is not locked out")
        let forged = try fixture.send(
            "POST", "/login", as: nil, form: [("login", "aki"), ("password", HouseholdFixture.password)], cookies: ["zaiko_device=\(Crypto.token())"])
        #expect(forged.status == 429)
    }

    @Test func aSessionFromBeforeLoginIsDeadAfterIt() async throws {
        let fixture = try await HouseholdFixture()
        // The browser carries the member's session and someone signs in as the owner on it.
        let response = try logIn(fixture, login: "aki", as: fixture.member)
        let fresh = try #require(response.cookie("zaiko_session"))
        #expect(fresh != fixture.member)
        #expect(try fixture.accounts.session(token: fixture.member) == nil)
        #expect(try fixture.send("GET", "/account", as: fixture.member).status == 303)
        #expect(try fixture.send("GET", "/account", as: fresh).status == 200)
    }

    @Test func logoutEndsTheSessionOnTheServerAndClearsTheCookie() async throws {
        let fixture = try await HouseholdFixture()
        let response = try fixture.send("POST", "/logout", as: fixture.member)
        #expect(response.status == 303)
        #expect(response.setCookies.contains { $0.hasPrefix("zaiko_session=;") && $0.contains("Max-Age=0") })
        #expect(try fixture.accounts.session(token: fixture.member) == nil)
        // The browser drops the offline copies of the household's lists and photos too.
        #expect(response.header("Clear-Site-Data") == #""cache", "storage""#)
    }

    @Test func signingOutAfterTheSessionExpiredLandsOnTheLoginPage() async throws {
        let fixture = try await HouseholdFixture()
        fixture.advance(3 * 3600) // past the two-hour idle limit
        let response = try fixture.send("POST", "/logout", as: fixture.member)
        #expect(response.status == 303)
        #expect(response.header("Location") == "/login")
        #expect(response.setCookies.contains { $0.hasPrefix("zaiko_session=;") })
    }

    @Test func wrongLoginsGetOneMessageThatRevealsNothing() async throws {
        let fixture = try await HouseholdFixture()
        let wrongPassword = try logIn(fixture, password: "not it at all")
        let noSuchLogin = try logIn(fixture, login: "nobody")
        #expect(wrongPassword.status == 422)
        #expect(noSuchLogin.status == 422)
        #expect(wrongPassword.text.contains("The login or the password is wrong."))
        #expect(noSuchLogin.text.contains("The login or the password is wrong."))
        // The typed login stays in the form; the password does not come back.
        #expect(wrongPassword.text.contains("value=\"ken\""))
        #expect(!wrongPassword.text.contains("not it at all"))
    }

    @Test func throttledLoginsSayWhenToTryAgain() async throws {
        let fixture = try await HouseholdFixture()
        for _ in 0..<4 { _ = try logIn(fixture, password: "guess one two") }
        let locked = try logIn(fixture, password: "guess one two")
        #expect(locked.status == 429)
        #expect(locked.text.contains("Too many attempts. Try again in 30 seconds."))
        #expect(locked.header("Retry-After") == "30")
        #expect(try logIn(fixture).status == 429)
        fixture.advance(31)
        #expect(try logIn(fixture).status == 303)
    }

    @Test func nextOnlyLeadsToThisSite() {
        #expect(SessionController.safeNext("/account") == "/account")
        #expect(SessionController.safeNext("//evil.example/") == "/")
        #expect(SessionController.safeNext("https://evil.example/") == "/")
        #expect(SessionController.safeNext("/\\evil.example") == "/")
        #expect(SessionController.safeNext("/\t/evil.example") == "/")
        #expect(SessionController.safeNext("/x\\/evil.example") == "/")
        #expect(SessionController.safeNext("/\n/evil.example") == "/")
        #expect(SessionController.safeNext("/ /evil.example") == "/")
        #expect(SessionController.safeNext("/folders/3?page=2") == "/folders/3?page=2")
    }

    func name(_ fixture: HouseholdFixture) throws -> String? {
        try fixture.accounts.session(token: fixture.member)?.memberName
    }

    @Test func aPostWithoutTheRightTokenIsRefusedAndChangesNothing() async throws {
        let fixture = try await HouseholdFixture()
        let variants: [(String, HouseholdFixture.Token, [(String, String)])] = [
            ("missing", .none, []),
            ("wrong", .wrong, []),
            ("another session's", .of(fixture.owner), []),
            ("foreign Origin", .valid, [("Origin", "http://evil.example")]),
            ("cross-site fetch", .valid, [("Sec-Fetch-Site", "cross-site")]),
        ]
        for (label, token, headers) in variants {
            let response = try fixture.send("POST", "/account/profile", as: fixture.member, form: [("name", "Mallory")], csrf: token, headers: headers)
            #expect(response.status == 403, "\(label)")
            #expect(try name(fixture) == "Ken", "\(label) changed the name")
        }
        let sameOrigin = try fixture.send("POST", "/account/profile", as: fixture.member, form: [("name", "Kenji")], headers: [("Origin", "http://zaiko.test")])
        #expect(sameOrigin.status == 303)
        #expect(try name(fixture) == "Kenji")
    }

    @Test func anonymousFormsNeedTheirCookieToken() async throws {
        let fixture = try await HouseholdFixture()
        let response = try fixture.send("POST", "/login", as: nil, form: [("login", "ken"), ("password", HouseholdFixture.password)], csrf: .wrong)
        #expect(response.status == 403)
        #expect(response.cookie("zaiko_session") == nil)
    }

    @Test func aLoginPageSetsTheFormTokenCookieForStrictSameSiteUse() async throws {
        let fixture = try await HouseholdFixture()
        let response = fixture.app.respond(to: Request(method: "GET", path: "/login"))
        let cookie = try #require(response.setCookies.first { $0.hasPrefix("zaiko_csrf=") })
        #expect(cookie.contains("SameSite=Strict"))
        let token = try #require(response.cookie("zaiko_csrf"))
        #expect(response.text.contains("name=\"_csrf\" value=\"\(token)\""))
    }

    @Test func theLastOwnerRuleShowsOnTheSettingsPage() async throws {
        let fixture = try await HouseholdFixture()
        let owner = try #require(try fixture.accounts.session(token: fixture.owner))
        let response = try fixture.send("POST", "/settings/members/\(owner.memberId)/role", as: fixture.owner, form: [("role", "member")])
        #expect(response.status == 422)
        #expect(response.text.contains("The household needs at least one owner."))
        #expect(try fixture.accounts.session(token: fixture.owner)?.role == .owner)
    }

    @Test func aRoleChangeTakesEffectOnTheNextRequest() async throws {
        let fixture = try await HouseholdFixture()
        #expect(try fixture.send("GET", "/settings", as: fixture.member).status == 403)
        _ = try fixture.send("POST", "/settings/members/\(fixture.memberId)/role", as: fixture.owner, form: [("role", "owner")])
        #expect(try fixture.send("GET", "/settings", as: fixture.member).status == 200)
    }

    /// Every `prefix…` up to the next quote, space or `<` in a page.
    func links(_ text: String, after prefix: String) -> [String] {
        text.components(separatedBy: prefix).dropFirst().map { String($0.prefix { !"\" <&#".contains($0) }) }
    }

    @Test func anInvitationLinkIsShownOnceInThePostsAnswerAndJoinsTheHousehold() async throws {
        let fixture = try await HouseholdFixture()
        let created = try fixture.send("POST", "/settings/invitations", as: fixture.owner, form: [("role", "viewer")])
        // The link is in the answer to the POST, never in an address the browser keeps in its history.
        #expect(created.status == 200)
        #expect(created.header("Location") == nil)
        #expect(created.header("Cache-Control")?.contains("no-store") == true)
        let shown = links(created.text, after: "http://zaiko.test/join/")
        #expect(shown.count == 1, "\(shown)")
        let token = try #require(shown.first)
        #expect(token.count == 43)
        // Asking for the settings page again, even with the old-style address, never shows it.
        #expect(!(try fixture.send("GET", "/settings", as: fixture.owner).text.contains(token)))
        #expect(!(try fixture.send("GET", "/settings?invitation=\(token)", as: fixture.owner).text.contains(token)))

        let form: [(String, String)] = [("name", "Mei"), ("login", "mei"), ("password", "a long enough phrase"), ("password_confirm", "a long enough phrase")]
        let joined = try fixture.send("POST", "/join/\(token)", as: nil, form: form)
        #expect(joined.status == 303)
        let session = try #require(joined.cookie("zaiko_session"))
        #expect(try fixture.accounts.session(token: session)?.role == .viewer)
        let again = try fixture.send("POST", "/join/\(token)", as: nil, form: form.map { $0.0 == "login" ? ("login", "mei2") : $0 })
        #expect(again.status == 404)
        #expect(again.text.contains("This link no longer works"))
    }

    @Test func aNewFeedAddressIsShownOnceInThePostsAnswer() async throws {
        let fixture = try await HouseholdFixture()
        try fixture.accounts.updateProfile(memberId: fixture.memberId, name: "Ken", language: "ja")
        let created = try fixture.send("POST", "/account/calendar-feed", as: fixture.member)
        #expect(created.status == 200)
        #expect(created.header("Location") == nil)
        #expect(created.header("Cache-Control")?.contains("no-store") == true)
        let webcal = links(created.text, after: "webcal://zaiko.test/calendar/")
        let web = links(created.text, after: "http://zaiko.test/calendar/")
        // The webcal address twice (field and subscribe button), the web address once.
        #expect(Set(webcal).count == 1 && web.count == 1, "\(webcal) \(web)")
        let token = String(try #require(web.first).dropLast(".ics".count))
        #expect(try fixture.send("GET", "/calendar/\(token).ics", as: nil).status == 200)
        // The page's other forms show what is stored, not the (absent) fields of this POST.
        #expect(created.text.contains("<option value=\"ja\" selected>"))
        #expect(!(try fixture.send("GET", "/account?feed=\(token)", as: fixture.member).text.contains(token)))
    }

    @Test func changingOrResettingThePasswordEndsTheCalendarFeed() async throws {
        let fixture = try await HouseholdFixture()
        let created = try fixture.send("POST", "/account/calendar-feed", as: fixture.member)
        let first = String(try #require(links(created.text, after: "http://zaiko.test/calendar/").first).dropLast(".ics".count))
        #expect(try fixture.send("GET", "/calendar/\(first).ics", as: nil).status == 200)
        let changed = try fixture.send(
            "POST", "/account/password", as: fixture.member,
            form: [
                ("current_password", HouseholdFixture.password), ("password", "a new kitchen phrase"), ("password_confirm", "a new kitchen phrase"),
            ])
        #expect(changed.status == 303)
        #expect(try fixture.send("GET", "/calendar/\(first).ics", as: nil).status == 404)

        let again = try fixture.send("POST", "/account/calendar-feed", as: fixture.member)
        let second = String(try #require(links(again.text, after: "http://zaiko.test/calendar/").first).dropLast(".ics".count))
        #expect(try fixture.send("GET", "/calendar/\(second).ics", as: nil).status == 200)
        let reset = try fixture.accounts.createPasswordReset(login: "ken")
        let done = try fixture.send(
            "POST", "/reset/\(reset)", as: nil, form: [("password", "another kitchen phrase"), ("password_confirm", "another kitchen phrase")])
        #expect(done.status == 303)
        #expect(try fixture.send("GET", "/calendar/\(second).ics", as: nil).status == 404)
    }

    @Test func aJoinFormWithProblemsReportsEachBesideItsFieldAndKeepsWhatWasTyped() async throws {
        let fixture = try await HouseholdFixture()
        let token = try fixture.accounts.invite(in: try #require(try fixture.accounts.session(token: fixture.owner)).household, role: .member)
        let response = try fixture.send(
            "POST", "/join/\(token)", as: nil,
            form: [
                ("name", "Mei"), ("login", "ken"), ("password", "password1"), ("password_confirm", "password2"),
            ], headers: [("Accept-Language", "ja")])
        #expect(response.status == 422)
        #expect(response.text.contains("id=\"f-login-error\""))
        #expect(response.text.contains("このログインIDは使われています") || response.text.contains("よく使われていて"))
        #expect(response.text.contains("id=\"f-password-error\""))
        #expect(response.text.contains("id=\"f-password_confirm-error\""))
        #expect(response.text.contains("value=\"Mei\""))
        #expect(try fixture.accounts.link(token: token, purpose: .invitation) != nil)
    }
}
