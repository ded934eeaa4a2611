import Foundation
import GRDB

/// Households, members, sessions, invitations and password resets. Each write is one transaction.
/// Password hashing happens outside transactions: it is slow on purpose.
public struct Accounts: Sendable {
    let database: AppDatabase
    let hasher: any PasswordHashing
    let clock: WallClock

    public static let invitationLifetime: TimeInterval = 7 * 86400
    public static let resetLifetime: TimeInterval = 86400
    /// A remembered session lasts 30 days; one that is not ends after a day.
    public static let rememberedLifetime: TimeInterval = 30 * 86400
    public static let browserSessionLifetime: TimeInterval = 86400
    /// Unused for this long, a session ends even before its lifetime.
    public static let rememberedIdleLimit: TimeInterval = 14 * 86400
    public static let browserSessionIdleLimit: TimeInterval = 2 * 3600
    /// How stale last_seen may get before a request writes it again (saves a write per page).
    static let lastSeenResolution: TimeInterval = 300

    public init(database: AppDatabase, hasher: any PasswordHashing = Argon2id.standard, clock: WallClock = .system) {
        self.database = database
        self.hasher = hasher
        self.clock = clock
    }

    var now: Date { clock.now() }
    func stamp(_ offset: TimeInterval = 0) -> Timestamp { Timestamp(now.addingTimeInterval(offset)) }

    // MARK: - First run and households

    public func hasHousehold() throws -> Bool {
        try database.writer.read { db in try Household.fetchCount(db) > 0 }
    }

    /// The folders every new household starts with. Their names come from the language catalogs
    /// (`Templates/locales/<code>.json`, key `StarterFolder.key`), so a new language names them too.
    public static let starterFolders: [StarterFolder] = [
        StarterFolder(key: "starter_fridge", kind: .stock, icon: "fridge", fallbackName: "Fridge"),
        StarterFolder(key: "starter_freezer", kind: .stock, icon: "freezer", fallbackName: "Freezer"),
        StarterFolder(key: "starter_pantry", kind: .stock, icon: "pantry", fallbackName: "Pantry"),
        StarterFolder(key: "starter_supermarket", kind: .shopping, icon: "cart", fallbackName: "Supermarket"),
    ]

    /// First run: the household, its starter folders and its owner, signed in. Refused once any
    /// household exists.
    public func setUp(
        householdName: String, ownerName: String, login: String, password: String, language: String, userAgent: String,
        timeZone: String = "UTC", folderNames: [String: String] = [:]
    ) throws -> String {
        let errors = Self.setupProblems(householdName: householdName, ownerName: ownerName, login: login, password: password, timeZone: timeZone)
        guard errors.isEmpty else { throw InventoryError.validation(errors) }
        let trimmedHousehold = householdName.trimmingCharacters(in: .whitespacesAndNewlines)
        let hash = try hasher.hash(password)
        return try database.write(by: nil, at: stamp()) { db in
            guard try Household.fetchCount(db) == 0 else { throw InventoryError.notFound }
            let household = try Household.Draft(name: trimmedHousehold, createdAt: stamp()).insertAndFetch(db, as: Household.self)
            try db.execute(sql: "UPDATE household SET language = ?, time_zone = ? WHERE id = ?", arguments: [language, timeZone, household.id])
            try Self.insertStarterFolders(db, householdId: household.id, names: folderNames, at: stamp())
            let member = try insertMember(db, householdId: household.id, name: ownerName, login: login, hash: hash, role: .owner, language: nil)
            return try createSession(db, memberId: member.id, remember: false, userAgent: userAgent)
        }
    }

    /// What is wrong with a setup form, by field.
    public static func setupProblems(
        householdName: String, ownerName: String, login: String, password: String, timeZone: String = "UTC"
    ) -> [String: FieldProblem] {
        var errors = memberProblems(name: ownerName, login: login, password: password)
        if !HouseholdSettings.isKnown(timeZone: timeZone) { errors["time_zone"] = .timeZoneInvalid }
        let trimmed = householdName.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { errors["household"] = .householdNameRequired }
        if trimmed.storedLength > 100 { errors["household"] = .nameTooLong }
        return errors
    }

    /// `names` by starter key, in the household's language; a name missing there is the fallback.
    static func insertStarterFolders(_ db: Database, householdId: Household.ID, names: [String: String], at time: Timestamp) throws {
        for (position, starter) in starterFolders.enumerated() {
            let name = names[starter.key].map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.flatMap { $0.isEmpty ? nil : $0 }
            var folder = Folder.Draft(
                householdId: householdId, name: name ?? starter.fallbackName, kind: starter.kind, icon: starter.icon,
                position: position, createdAt: time)
            folder.starter = starter.key
            try folder.insert(db)
        }
    }

    /// For the person who runs the server: a new household with no members yet, and an owner
    /// invitation for it. Returns the invitation token.
    public func createHousehold(name: String, language: String = "en", folderNames: [String: String] = [:]) throws -> String {
        try createHousehold(name: name, language: language) { household in
            try Self.insertStarterFolders(household.db, householdId: household.id, names: folderNames, at: stamp())
        }.token
    }

    public func households() throws -> [HouseholdSummary] {
        try database.writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT h.id, h.name, COUNT(m.id) AS members,
                           COALESCE(GROUP_CONCAT(CASE WHEN m.role = 'owner' THEN m.login END, ', '), '') AS owners
                    FROM household h LEFT JOIN member m ON m.household_id = h.id
                    GROUP BY h.id ORDER BY h.id
                    """
            ).map {
                HouseholdSummary(
                    id: $0["id"], name: $0["name"], members: $0["members"],
                    owners: ($0["owners"] as String).split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
            }
        }
    }

    // MARK: - Members

    /// What is wrong with a new member's name, login and password, the login's availability included.
    public func memberProblems(name: String, login: String, password: String) throws -> [String: FieldProblem] {
        var errors = Self.memberProblems(name: name, login: login, password: password)
        let trimmed = login.trimmingCharacters(in: .whitespacesAndNewlines)
        if errors["login"] == nil,
            try database.writer.read({ db in
                try Int.fetchOne(db, sql: "SELECT 1 FROM member WHERE login = ? COLLATE NOCASE", arguments: [trimmed]) != nil
            })
        {
            errors["login"] = .loginTaken
        }
        return errors
    }

    static func memberProblems(name: String, login: String, password: String) -> [String: FieldProblem] {
        var errors: [String: FieldProblem] = [:]
        let trimmedName = name.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmedName.isEmpty { errors["name"] = .nameRequired } else if trimmedName.storedLength > 100 { errors["name"] = .nameTooLong }
        let trimmedLogin = login.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmedLogin.isEmpty {
            errors["login"] = .loginRequired
        } else if trimmedLogin.count > 64 || trimmedLogin.contains(where: { $0.isWhitespace || $0.isNewline }) {
            errors["login"] = .loginInvalid
        }
        if let problem = PasswordPolicy.problem(with: password) { errors["password"] = problem }
        return errors
    }

    func insertMember(_ db: Database, householdId: Household.ID, name: String, login: String, hash: String, role: Role, language: String?) throws -> Member {
        let trimmedLogin = login.trimmingCharacters(in: .whitespacesAndNewlines)
        if try Int.fetchOne(db, sql: "SELECT 1 FROM member WHERE login = ? COLLATE NOCASE", arguments: [trimmedLogin]) != nil {
            throw InventoryError.validation(["login": .loginTaken])
        }
        let member = Member.Draft(
            householdId: householdId, name: name.trimmingCharacters(in: .whitespacesAndNewlines), login: trimmedLogin,
            passwordHash: hash, role: role, language: language, createdAt: stamp())
        return try member.insertAndFetch(db, as: Member.self)
    }

    public func members(in scope: HouseholdScope) throws -> [Member] {
        try database.writer.read { db in try Self.members(db, scope.householdId) }
    }

    static func members(_ db: Database, _ householdId: Household.ID) throws -> [Member] {
        try Member.filter(Column("household_id") == householdId).order(Column("name")).fetchAll(db)
    }

    /// Changes a member's role (as the form names it); the household always keeps at least one owner.
    public func changeRole(memberId: Member.ID, to roleName: String, in scope: HouseholdScope) throws {
        try database.writer.write { db in
            guard var member = try Member.filter(Column("id") == memberId && Column("household_id") == scope.householdId).fetchOne(db) else {
                throw InventoryError.notFound
            }
            guard let role = Role(rawValue: roleName) else { throw InventoryError.validation(["role": .roleInvalid]) }
            if member.role == .owner, role != .owner, try ownerCount(db, scope.householdId) <= 1 {
                throw InventoryError.validation(["role": .lastOwner])
            }
            member.role = role
            try member.update(db)
        }
    }

    /// Removes a member and ends their sessions at once; never the last owner.
    public func removeMember(memberId: Member.ID, in scope: HouseholdScope) throws {
        try database.writer.write { db in
            guard let member = try Member.filter(Column("id") == memberId && Column("household_id") == scope.householdId).fetchOne(db) else {
                throw InventoryError.notFound
            }
            if member.role == .owner, try ownerCount(db, scope.householdId) <= 1 {
                throw InventoryError.validation(["role": .lastOwner])
            }
            _ = try member.delete(db) // sessions cascade
        }
    }

    func ownerCount(_ db: Database, _ householdId: Household.ID) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM member WHERE household_id = ? AND role = 'owner'", arguments: [householdId]) ?? 0
    }

    public func updateProfile(memberId: Member.ID, name: String, language: String?) throws {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { throw InventoryError.validation(["name": .nameRequired]) }
        if trimmed.storedLength > 100 { throw InventoryError.validation(["name": .nameTooLong]) }
        try database.writer.write { db in
            try db.execute(sql: "UPDATE member SET name = ?, language = ? WHERE id = ?", arguments: [trimmed, language, memberId])
        }
    }

    /// Checks the current password (throttled like a login: a session is not a licence to guess),
    /// stores the new one and signs out every other session. The calendar feed ends too: whoever
    /// knew the old password may have made it.
    public func changePassword(memberId: Member.ID, current: String, new: String, keepingSession sessionId: DeviceSession.ID, peer: String) throws {
        let row = try database.writer.read { db in
            try Row.fetchOne(db, sql: "SELECT login, password_hash FROM member WHERE id = ?", arguments: [memberId])
        }
        guard let row else { throw InventoryError.notFound }
        let keys = Self.throttleKeys(login: row["login"], peer: peer)
        let lockIfFailed: Date?
        switch try admit(keys) {
        case .locked: throw InventoryError.validation(["current_password": .currentPasswordThrottled])
        case .admitted(let lock): lockIfFailed = lock
        }
        guard hasher.verify(current, against: row["password_hash"]) else {
            throw InventoryError.validation(["current_password": lockIfFailed != nil ? .currentPasswordThrottled : .currentPasswordWrong])
        }
        if let problem = PasswordPolicy.problem(with: new) {
            try database.writer.write { db in try Throttle.forgive(db, keys) }
            throw InventoryError.validation(["password": problem])
        }
        let newHash = try hasher.hash(new)
        try database.writer.write { db in
            try Throttle.forgive(db, keys)
            try db.execute(sql: "UPDATE member SET password_hash = ? WHERE id = ?", arguments: [newHash, memberId])
            try db.execute(sql: "DELETE FROM session WHERE member_id = ? AND id != ?", arguments: [memberId, sessionId])
            try db.execute(sql: "DELETE FROM single_use_link WHERE member_id = ? AND purpose = 'password_reset'", arguments: [memberId])
            try db.execute(sql: "DELETE FROM calendar_feed WHERE member_id = ?", arguments: [memberId])
        }
    }
}
