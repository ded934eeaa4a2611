import Foundation
import GRDB

/// What an import created.
public struct HouseholdImportReport: Sendable, Equatable {
    public struct ImportedMember: Sendable, Equatable {
        public let name: String
        public let login: String
        public let role: String
    }

    /// The new household.
    public let household: HouseholdScope
    public let householdName: String
    public let members: [ImportedMember]
    public let folders: Int
    public let items: Int
    public let trashedItems: Int
    public let historyLines: Int
    public let products: Int
    public let photos: Int
    public var recipes: Int = 0
    /// The owner invitation of the new household (7 days, once): `/join/<token>`.
    public let invitationToken: String
}

/// Whole households in and out of the database, as `HouseholdDocument` holds them: the export's
/// read (one read transaction, so every part agrees with the others) and the import's write (one
/// transaction). Nothing of another household is read.
public struct Households: Sendable {
    let database: AppDatabase
    let clock: WallClock

    /// The password hash of an imported member: no password matches it (libsodium refuses it as a
    /// hash string), since passwords never leave a server.
    public static let noPassword = "!imported-without-password"

    public init(database: AppDatabase, clock: WallClock = .system) {
        self.database = database
        self.clock = clock
    }

    /// Everything of the household, exported at `time`.
    public func document(in scope: HouseholdScope, at time: Timestamp) throws -> HouseholdDocument {
        try database.writer.read { db in try Self.document(db, householdId: scope.householdId, at: time) }
    }

    static func document(_ db: Database, householdId: Household.ID, at time: Timestamp) throws -> HouseholdDocument {
        guard let household = try Row.fetchOne(db, sql: "SELECT * FROM household WHERE id = ?", arguments: [householdId]) else {
            throw InventoryError.notFound
        }
        let id = [householdId]
        let members = try Row.fetchAll(db, sql: "SELECT * FROM member WHERE household_id = ? ORDER BY id", arguments: StatementArguments(id)).map {
            HouseholdDocument.MemberPart(
                id: $0["id"], name: $0["name"], login: $0["login"], role: $0["role"], language: $0["language"],
                createdAt: try $0.decode(forColumn: "created_at"))
        }
        let folders = try Row.fetchAll(db, sql: "SELECT * FROM folder WHERE household_id = ? ORDER BY position, id", arguments: StatementArguments(id)).map {
            HouseholdDocument.FolderPart(
                id: $0["id"], name: $0["name"], kind: $0["kind"], icon: $0["icon"], position: $0["position"], starter: $0["starter"],
                lastStockFolderId: $0["last_stock_folder_id"], createdAt: try $0.decode(forColumn: "created_at"),
                deletedAt: try $0.decode(forColumn: "deleted_at"))
        }
        let photos = try Row.fetchAll(db, sql: "SELECT * FROM photo WHERE household_id = ? ORDER BY created_at, key", arguments: StatementArguments(id)).map {
            row -> HouseholdDocument.PhotoPart in
            let key: String = row["key"]
            let format: String = row["format"]
            let ext = format == "webp" ? "webp" : "jpg"
            return HouseholdDocument.PhotoPart(
                key: key, format: format, createdAt: try row.decode(forColumn: "created_at"), large: "photos/\(key)-512.\(ext)",
                small: "photos/\(key)-128.\(ext)")
        }
        let items = try Item.fetchList(
            try db.cachedStatement(sql: "SELECT * FROM item WHERE household_id = ? ORDER BY id"), arguments: StatementArguments(id)
        ) { item, row in
            HouseholdDocument.ItemPart(
                id: item.id.rawValue, folderId: item.folderId.rawValue, values: item.draft.values, reminderSentFor: row["reminder_sent_for"],
                version: item.version, createdAt: item.createdAt, updatedAt: item.updatedAt, deletedAt: item.deletedAt, keepRuleId: row["keep_rule_id"],
                refillQuantity: row["refill_quantity"])
        }
        let events = try Row.fetchAll(db, sql: "SELECT * FROM item_event WHERE household_id = ? ORDER BY id", arguments: StatementArguments(id)).map {
            HouseholdDocument.ItemEventPart(
                itemId: $0["item_id"], memberId: $0["member_id"], kind: $0["kind"], detail: $0["detail"], at: try $0.decode(forColumn: "at"),
                cookId: $0["cook_id"],
                fromFolderId: $0["from_folder_id"], toFolderId: $0["to_folder_id"])
        }
        let products = try Row.fetchAll(db, sql: "SELECT * FROM product WHERE household_id = ? ORDER BY barcode", arguments: StatementArguments(id)).map {
            HouseholdDocument.ProductPart(
                barcode: $0["barcode"], name: $0["name"], photo: $0["photo"], illustration: $0["illustration"], kind: $0["kind"], unit: $0["unit"],
                folderId: $0["folder_id"], updatedAt: try $0.decode(forColumn: "updated_at"), shelfLifeDays: $0["shelf_life_days"])
        }
        return HouseholdDocument(
            exportedAt: time,
            household: .init(
                name: household["name"], timeZone: household["time_zone"], dueSoonDays: household["due_soon_days"], language: household["language"],
                productLookupUrl: household["product_lookup_url"], createdAt: try household.decode(forColumn: "created_at"), usedUp: household["used_up"],
                usedUpFolderId: household["used_up_folder_id"], keepFolderId: household["keep_folder_id"],
                keepCountsExpired: household["keep_counts_expired"]),
            members: members, folders: folders, photos: photos, items: items, itemEvents: events, products: products,
            recipes: try readRecipes(db, householdId: householdId), cooks: try readCooks(db, householdId: householdId),
            shelfLives: try Row.fetchAll(db, sql: "SELECT * FROM shelf_life WHERE household_id = ? ORDER BY id", arguments: StatementArguments(id)).map {
                HouseholdDocument.ShelfLifePart(
                    productKey: $0["product_key"], folderId: $0["folder_id"], itemId: $0["item_id"],
                    registeredOn: try $0.decode(forColumn: "registered_on"), days: $0["days"], at: try $0.decode(forColumn: "at"))
            },
            keepRules: try Row.fetchAll(db, sql: "SELECT * FROM keep_rule WHERE household_id = ? ORDER BY id", arguments: StatementArguments(id)).map {
                HouseholdDocument.KeepRulePart(
                    id: $0["id"], name: $0["name"], nameKey: $0["name_key"], unit: $0["unit"], minimum: $0["minimum"], refillTo: $0["refill_to"],
                    pack: $0["pack"], kind: $0["kind"], declined: $0["declined"], createdAt: try $0.decode(forColumn: "created_at"))
            },
            meals: try readMeals(db, householdId: householdId),
            stockUses: try Row.fetchAll(db, sql: "SELECT * FROM stock_use WHERE household_id = ? ORDER BY id", arguments: StatementArguments(id)).map {
                HouseholdDocument.StockUsePart(
                    itemId: $0["item_id"], name: $0["name"], nameFolded: $0["name_folded"], unit: $0["unit"], kind: $0["kind"], quantity: $0["quantity"],
                    event: $0["event"], due: try $0.decode(forColumn: "due"), at: try $0.decode(forColumn: "at"))
            })
    }

    /// A NEW household from another server's export, in one transaction with new ids and the owner
    /// invitation: on any failure nothing of it stays. `staged`: the photos whose files `photos`
    /// wrote already, each under a new key (`old` is the key the document uses). The document's
    /// references must have been checked (`HouseholdImport`).
    public func importDocument(
        _ document: HouseholdDocument, staged: [(old: String, new: String, format: String, createdAt: Timestamp)], photos: PhotoStore
    ) throws -> HouseholdImportReport {
        let photoKeys = Dictionary(uniqueKeysWithValues: staged.map { ($0.old, $0.new) })
        let accounts = Accounts(database: database, clock: clock)
        return try database.write(by: nil, at: Timestamp(clock.now())) { db in
            let source = document.household
            try db.execute(
                sql: """
                    INSERT INTO household (name, time_zone, due_soon_days, language, product_lookup_url, created_at)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                arguments: [source.name, source.timeZone, source.dueSoonDays, source.language, source.productLookupUrl, source.createdAt])
            let householdId = Household.ID(rawValue: db.lastInsertedRowID)

            var memberIds: [Int64: Member.ID] = [:]
            var members: [HouseholdImportReport.ImportedMember] = []
            for member in document.members {
                let login = try Self.freeLogin(db, wanted: member.login)
                try db.execute(
                    sql: "INSERT INTO member (household_id, name, login, password_hash, role, language, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    arguments: [householdId, member.name, login, Self.noPassword, member.role, member.language, member.createdAt])
                memberIds[member.id] = Member.ID(rawValue: db.lastInsertedRowID)
                members.append(.init(name: member.name, login: login, role: member.role))
            }

            var folderIds: [Int64: Folder.ID] = [:]
            for folder in document.folders {
                try db.execute(
                    sql: """
                        INSERT INTO folder (household_id, name, kind, icon, position, created_at, deleted_at, starter)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [householdId, folder.name, folder.kind, folder.icon, folder.position, folder.createdAt, folder.deletedAt, folder.starter])
                folderIds[folder.id] = Folder.ID(rawValue: db.lastInsertedRowID)
            }
            for folder in document.folders {
                guard let last = folder.lastStockFolderId else { continue }
                try db.execute(sql: "UPDATE folder SET last_stock_folder_id = ? WHERE id = ?", arguments: [folderIds[last], folderIds[folder.id]])
            }

            for photo in staged {
                try photos.insertRow(db, key: photo.new, format: photo.format, householdId: householdId, createdAt: photo.createdAt)
            }

            var itemIds: [Int64: Item.ID] = [:]
            for item in document.items {
                guard let folderId = folderIds[item.folderId] else {
                    throw DatabaseError(resultCode: .SQLITE_CONSTRAINT, message: "item \(item.id) is in a folder that is not in the file")
                }
                var values = item.values
                values.photo = item.photo.flatMap { photoKeys[$0] }
                let stored = try Item.Draft(
                    householdId: householdId, folderId: folderId, values: values, version: item.version, createdAt: item.createdAt,
                    updatedAt: item.updatedAt, deletedAt: item.deletedAt
                ).insertAndFetch(db, as: Item.self)
                if let sent = item.reminderSentFor {
                    try db.execute(sql: "UPDATE item SET reminder_sent_for = ? WHERE id = ?", arguments: [sent, stored.id])
                }
                itemIds[item.id] = stored.id
            }
            for product in document.products {
                try NewHousehold.insertProduct(
                    db, householdId: householdId, barcode: product.barcode, name: product.name, photo: product.photo.flatMap { photoKeys[$0] },
                    illustration: product.illustration, kind: product.kind, unit: product.unit, folderId: product.folderId.flatMap { folderIds[$0] },
                    updatedAt: product.updatedAt, shelfLifeDays: product.shelfLifeDays)
            }
            let (recipeIds, cookIds) = try Self.insertRecipes(
                db, document, householdId: householdId, ids: ImportedIds(members: memberIds, folders: folderIds, items: itemIds, photos: photoKeys))
            try Self.insertMeals(db, document, householdId: householdId, recipes: recipeIds, cooks: cookIds, members: memberIds)
            for event in document.itemEvents {
                try ItemHistory.append(
                    db, householdId: householdId, itemId: itemIds[event.itemId]!, memberId: event.memberId.flatMap { memberIds[$0] }, kind: event.kind,
                    detail: event.detail, at: event.at, cookId: event.cookId.flatMap { cookIds[$0] },
                    fromFolderId: event.fromFolderId.flatMap { folderIds[$0] }, toFolderId: event.toFolderId.flatMap { folderIds[$0] })
            }
            for sample in document.shelfLives ?? [] {
                try db.execute(
                    sql: """
                        INSERT INTO shelf_life (household_id, product_key, folder_id, item_id, registered_on, days, at) VALUES (?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        householdId, sample.productKey, sample.folderId.flatMap { folderIds[$0] }, sample.itemId.flatMap { itemIds[$0] },
                        sample.registeredOn, sample.days, sample.at,
                    ])
            }
            // The ledger as the file has it, not as this import's inserts wrote it (they stocked every
            // item today). Its uses teach the − / + steps again (`Schema.v23`).
            try db.execute(sql: "DELETE FROM stock_use WHERE household_id = ?", arguments: [householdId])
            let ledger = try db.cachedStatement(
                sql: """
                    INSERT INTO stock_use (household_id, item_id, name, name_folded, unit, kind, quantity, event, due, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """)
            for use in document.stockUses ?? [] {
                try ledger.execute(arguments: [
                    householdId, use.itemId.flatMap { itemIds[$0] }, use.name, use.nameFolded, use.unit, use.kind, use.quantity, use.event, use.due, use.at,
                ])
            }
            // Keep rules after the items (no item written here is checked against them: the file
            // holds the exporting server's checked state), then the rows they put on the lists.
            var keepRuleIds: [Int64: Int64] = [:]
            for rule in document.keepRules ?? [] {
                try db.execute(
                    sql: """
                        INSERT INTO keep_rule (household_id, name, name_key, unit, minimum, refill_to, pack, kind, declined, created_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        householdId, rule.name, rule.nameKey, rule.unit, rule.minimum, rule.refillTo, rule.pack, rule.kind, rule.declined, rule.createdAt,
                    ])
                keepRuleIds[rule.id] = db.lastInsertedRowID
            }
            for item in document.items where item.keepRuleId != nil || item.refillQuantity != nil {
                try db.execute(
                    sql: "UPDATE item SET keep_rule_id = ?, refill_quantity = ? WHERE id = ?",
                    arguments: [item.keepRuleId.flatMap { keepRuleIds[$0] }, item.refillQuantity, itemIds[item.id]])
            }
            try db.execute(
                sql: "UPDATE household SET keep_folder_id = ?, keep_counts_expired = ? WHERE id = ?",
                arguments: [source.keepFolderId.flatMap { folderIds[$0] }, source.keepCountsExpired ?? false, householdId])
            let token = try accounts.insertOwnerInvitation(db, householdId: householdId)
            var report = HouseholdImportReport(
                household: HouseholdScope(householdId), householdName: source.name, members: members, folders: document.folders.count,
                items: document.items.filter { $0.deletedAt == nil }.count, trashedItems: document.items.filter { $0.deletedAt != nil }.count,
                historyLines: document.itemEvents.count, products: document.products.count, photos: staged.count, invitationToken: token)
            report.recipes = document.recipes?.filter { $0.deletedAt == nil }.count ?? 0
            return report
        }
    }

    /// `wanted` when no member of this server has it, else `wanted-2`, `wanted-3`, …
    static func freeLogin(_ db: Database, wanted: String) throws -> String {
        let base = wanted.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? "member" : wanted
        var candidate = base
        var suffix = 1
        while try Int.fetchOne(db, sql: "SELECT 1 FROM member WHERE login = ? COLLATE NOCASE", arguments: [candidate]) != nil {
            suffix += 1
            candidate = "\(base)-\(suffix)"
        }
        return candidate
    }
}
