import Backups
import Foundation
import GRDB
import HTTPServer
import Logging
import Outbound
import TestSupport

@testable import Inventory
@testable import Web

/// Two households on one server: Home (the shared `Fixture`, plus a member and a viewer) and
/// Grandparents (owner), served by a real `App` over an in-memory database, with cheap password hashing.
struct HouseholdFixture {
    static let password = Fixture.password
    static let hasher = Argon2id(opsLimit: 1, memLimit: 8192)

    let app: App
    let accounts: Accounts
    /// The app's database, for stores the app does not expose.
    let database: AppDatabase
    let clock: ManualClock
    var owner = "", member = "", viewer = "", otherOwner = ""
    /// Ids in Home that object routes point at.
    var memberId: Member.ID = 0, invitationId: SingleUseLink.ID = 0, ownerSecondSessionId: DeviceSession.ID = 0
    /// Home's Fridge and a carton of milk in it.
    var fridgeId: Folder.ID = 0, itemId: Item.ID = 0
    /// A photo of Home's and the product learned from the milk's barcode.
    var photoKey = "", productId: Product.ID = 0
    /// A recipe of Home's that uses the milk.
    var recipeId: Recipe.ID = 0
    var items: Items

    /// `logger`: where the app logs (nothing below critical when not given).
    /// `allowPrivateOutbound`: the fake services tests start listen on loopback, which the server
    /// reaches only when its operator allows it (`--allow-private-outbound`).
    /// `backups`: the server's backups as Settings sees them (none when not given).
    /// `database`: a file database instead of the in-memory one (tests of the file's fate).
    /// `pendingLimits`: the room for waiting CSV previews and recipe drafts.
    /// `liveEvents`: how many event streams may be open, and their heartbeat.
    init(
        secureCookies: Bool = false, logger: Logger? = nil, allowPrivateOutbound: Bool = true, backups: (any BackupControl)? = nil,
        database: AppDatabase? = nil, pendingLimits: PendingStoreLimits = .standard, liveEvents: LiveEventLimits = LiveEventLimits()
    ) async throws {
        let home = try Fixture(database: database, clock: ManualClock(Date()), userAgent: "phone")
        let database = home.database
        self.database = database
        clock = home.clock
        let wall = clock.wall
        accounts = Accounts(database: database, hasher: Self.hasher, clock: wall)
        items = home.items
        var quiet = Logger(label: "test")
        quiet.logLevel = .critical
        var options = AppOptions(secureCookies: secureCookies, setupCode: nil, hasher: Self.hasher, clock: wall)
        options.outbound = OutboundHTTP(policy: AddressPolicy(allowsPrivate: allowPrivateOutbound))
        options.memberFetches = MemberFetches(operatorAllowsPrivate: allowPrivateOutbound)
        options.pendingLimits = pendingLimits
        // Imports from the loopback site may be slow while every suite runs; the deadlines
        // themselves are RecipeFetcherTests' concern.
        options.recipeFetch = (300, .seconds(600))
        options.backups = backups
        options.liveEvents = liveEvents
        app = try await App(database: database, resources: repositoryResources, logger: logger ?? quiet, options: options)

        owner = home.ownerToken
        member = try join(home.household, "ken", .member)
        viewer = try join(home.household, "yui", .viewer)
        memberId = try accounts.session(token: member)!.memberId
        invitationId = try {
            _ = try accounts.invite(in: home.household, role: .member)
            return try accounts.pendingInvitations(in: home.household)[0].id
        }()
        guard case .signedIn(let second, _, _) = try accounts.logIn(login: "aki", password: Self.password, peer: "p", userAgent: "laptop", remember: false)
        else {
            throw InventoryError.conflict
        }
        ownerSecondSessionId = try accounts.session(token: second)!.sessionId

        let ownerMember = try accounts.session(token: owner)!
        fridgeId = try home.firstFolder(.stock)
        var milk = ItemInput()
        milk.name = "Milk"
        milk.barcode = "4901234567894"
        photoKey = try app.photos.save(large: [0xFF, 0xD8, 0xFF, 0xD9], small: [0xFF, 0xD8, 0xFF, 0xD9], format: "jpeg", in: home.household)
        milk.picture = "photo:\(photoKey)"
        itemId = try items.register([milk], into: fridgeId, in: home.household, by: ownerMember.memberId, timeZone: .gmt)[0]
        productId = try Products(database: database).all(in: home.household)[0].id
        recipeId = try await database.writer.write { [householdId = home.household.householdId] db in
            let recipe = try Recipe.Draft(householdId: householdId, name: "Milk jelly").insertAndFetch(db, as: Recipe.self)
            try RecipeIngredient.Draft(householdId: householdId, recipeId: recipe.id, position: 0, name: "Milk", amount: 1, unit: "piece").insert(db)
            return recipe.id
        }

        let grandparents = try accounts.createHousehold(name: "Grandparents")
        otherOwner = try accounts.acceptInvitation(token: grandparents, name: "Grandma", login: "grandma", password: Self.password, userAgent: "")
    }

    func join(_ household: HouseholdScope, _ login: String, _ role: Role) throws -> String {
        let invitation = try accounts.invite(in: household, role: role)
        return try accounts.acceptInvitation(token: invitation, name: login.capitalized, login: login, password: Self.password, userAgent: "")
    }

    func advance(_ seconds: TimeInterval) { clock.advance(seconds) }

    enum Token { case valid, none, wrong, of(String) }

    /// Sends a request as the holder of `session` (nil: anonymous, with a CSRF cookie).
    /// POSTs carry the right form token unless `csrf` says otherwise.
    func send(
        _ method: String, _ path: String, as session: String?, form: [(String, String)] = [], csrf: Token = .valid,
        headers: [(String, String)] = [], files: [UploadedFile] = [], cookies extraCookies: [String] = [], from clientAddress: String = "192.168.1.30"
    ) throws -> Response {
        var all = headers + [("Host", "zaiko.test")]
        var fields = form
        let anonymousToken = "anonymous-csrf-token"
        var cookies = ["zaiko_csrf=\(anonymousToken)"] + extraCookies
        var expected = anonymousToken
        if let session {
            cookies.append("zaiko_session=\(session)")
            expected = try accounts.session(token: session)?.csrfToken ?? ""
        }
        all.append(("Cookie", cookies.joined(separator: "; ")))
        if method == "POST" {
            switch csrf {
            case .valid: fields.append(("_csrf", expected))
            case .none: break
            case .wrong: fields.append(("_csrf", "not-the-token"))
            case .of(let other): fields.append(("_csrf", try accounts.session(token: other)?.csrfToken ?? ""))
            }
        }
        let (route, query) = path.split(separator: "?", maxSplits: 1).map(String.init).splitFirst()
        let queryParameters = Parameters(
            (query ?? "").split(separator: "&").map {
                let pair = $0.split(separator: "=", maxSplits: 1).map(String.init)
                return (pair[0], (pair.count > 1 ? pair[1] : "").removingPercentEncoding ?? "")
            })
        return app.respond(
            to: Request(
                method: method, path: route, query: queryParameters, headers: Headers(all), form: Parameters(fields), files: files,
                clientAddress: clientAddress))
    }
}

extension Array where Element == String {
    func splitFirst() -> (String, String?) { (self[0], count > 1 ? self[1] : nil) }
}

extension Response {
    /// Every Set-Cookie header value.
    var setCookies: [String] { headers.filter { $0.name == "Set-Cookie" }.map(\.value) }

    func cookie(_ name: String) -> String? {
        setCookies.first { $0.hasPrefix(name + "=") }.map { String($0.dropFirst(name.count + 1).prefix { $0 != ";" }) }
    }
}
