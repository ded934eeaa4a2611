import Exchange
import Foundation
import GRDB
import TestSupport
import Testing

@testable import Inventory

/// The household export against the schema itself: every column of every table is carried by the
/// export or stands on `notCarried` with its reason, so a new column fails here until it is placed;
/// and what export then import writes on another server is, column by column, what the first
/// server held (ids mapped), so a field dropped by the export or by the import fails.
@Suite("Household export against the schema")
struct ExportSchemaTests {
    /// Tables that are not the household's to move, each with why.
    static let tablesNotCarried: [String: String] = [
        "api_token": "a member's personal access tokens for this server's API: made again on the new server",
        "api_idempotency": "answers this server's API gave, kept a day so a write sent again is not done twice",
        "applied_intent": "ids of actions phones sent to this server, so a repeat is not applied twice; a phone's queue is sent to the server it came from",
        "backup_status": "the server's own backups, not a household's",
        "calendar_feed": "a member's secret feed address: made again on the new server",
        "change_actor": "who and when of the write under way, empty between transactions",
        "change_record": "the live updates of this server's open pages; the new server starts its own feed",
        "grdb_migrations": "the schema's version, the new server's own",
        "health_check": "the server's own write check",
        "keep_check": "kept products a write touched, checked before it commits: empty between transactions",
        "login_throttle": "failed sign-ins on this server",
        "push_channel": "holds the channel's access token: set up again on the new server",
        "push_message": "the outbox of messages this server sent or is sending",
        "session": "sign-ins on this server; members sign in again on the new one",
        "single_use_link": "invitations and password resets of this server (the import makes its own invitation)",
        "trusted_device": "devices trusted by this server",
    ]

    /// Columns of carried tables that are not in the export, each with why (`household_id`, the
    /// household the document is, is left out of every table).
    static let notCarried: [String: String] = [
        "household.id": "the household gets a new id where it is imported",
        "household.recipes_version": "the recipe cache's counter, moved by triggers on the new server",
        "household.change_sequence": "the change feed's counter, this server's: the new server's starts at 0",
        "household.member_fetches_private": "whether members' look-ups may reach this home network: not carried to another network",
        "member.password_hash": "passwords do not travel: the owner joins the moved household by invitation",
        "folder.item_count": "counted by triggers from the items",
        "item.search_text": "made from the item's texts by the new server",
        "item.name_key": "made from the item's name by the new server",
        "household.keep_checked_on": "the day this server last checked the keep rules: the new server checks them on its own days",
        "item.in_basket": "shopping of the moment (ticked in a shop), not the household's lasting state",
        "item.in_basket_by": "who ticked a row in the basket: shopping of the moment, as in_basket",
        "item_event.id": "the history keeps its order; the new server numbers it",
        "product.id": "a product is known by its barcode in the document",
        "recipe.name_folded": "made from the name by the new server",
        "recipe_ingredient.id": "the ingredients keep their order; the new server numbers them",
        "recipe_ingredient.recipe_id": "an ingredient is listed under its recipe",
        "recipe_ingredient.position": "the ingredients' order in their recipe's list",
        "recipe_ingredient.name_folded": "made from the name by the new server",
        "recipe_tag.recipe_id": "a tag is listed under its recipe",
        "cook_take.id": "what a cook took keeps its order; the new server numbers it",
        "cook_take.cook_id": "what a cook took is listed under its cook",
        "shelf_life.id": "the samples keep their order; the new server numbers them",
        "stock_use.id": "the ledger keeps its order; the new server numbers it",
        "item.use_step": "learned again by the new server from the ledger's uses (`Schema.v23`)",
    ]

    /// Columns carried under another name: the document field (snake_case) that holds them.
    static let carriedAs: [String: String] = [
        "recipe_ingredient.product_id": "product_barcode",
        "recipe_tag.tag": "tags",
    ]

    /// Every table of the current schema and its columns, from a newly migrated database.
    static func schema(_ database: AppDatabase) throws -> [String: [String]] {
        try database.writer.read { db in
            let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_stat%'")
            return try Dictionary(
                uniqueKeysWithValues: tables.map { table in (table, try Row.fetchAll(db, sql: "PRAGMA table_info(\(table))").map { $0["name"] as String }) })
        }
    }

    /// The fields of a document part as snake_case names, nested structs flattened with their
    /// name as a prefix (`produce.dueDays` is `produce_due_days`); an item's `values` are written
    /// beside its other fields, without a prefix (`ItemPart`'s encoding).
    static func fields(of part: Any, prefix: String = "") -> Set<String> {
        var names: Set<String> = []
        for child in Mirror(reflecting: part).children {
            guard let label = child.label else { continue }
            if let values = child.value as? ItemValues {
                names.formUnion(fields(of: values, prefix: prefix))
                continue
            }
            let name = prefix + snakeCase(label)
            names.insert(name)
            var value = child.value
            if let optional = value as? OptionalValue {
                guard let wrapped = optional.wrapped else { continue }
                value = wrapped
            }
            if Mirror(reflecting: value).displayStyle == .struct { names.formUnion(fields(of: value, prefix: name + "_")) }
        }
        return names
    }

    static func snakeCase(_ name: String) -> String {
        name.reduce(into: "") { result, character in
            if character.isUppercase { result += "_" + character.lowercased() } else { result.append(character) }
        }
    }

    /// The document part each carried table's rows become (a record of the fixture's export).
    static func parts(_ document: HouseholdDocument) throws -> [String: Any] {
        let recipe = try #require(document.recipes?.first { $0.produce != nil && !$0.ingredients.isEmpty })
        let cook = try #require(document.cooks?.first { !$0.takes.isEmpty })
        return [
            "household": document.household, "member": try #require(document.members.first), "folder": try #require(document.folders.first),
            "photo": try #require(document.photos.first), "item": try #require(document.items.first),
            "item_event": try #require(document.itemEvents.first), "product": try #require(document.products.first), "recipe": recipe,
            "recipe_ingredient": recipe.ingredients[0], "recipe_tag": recipe, "cook": cook, "cook_take": cook.takes[0],
            "shelf_life": try #require(document.shelfLives?.first),
            "keep_rule": try #require(document.keepRules?.first),
            "meal": try #require(document.meals?.first { $0.recipeId != nil }),
            "stock_use": try #require(document.stockUses?.first { $0.itemId != nil && $0.due != nil }),
        ]
    }

    @Test("every column of every table is exported or on the list of what is not, with a reason")
    func everyColumnIsPlaced() throws {
        let source = try ExchangeFixture()
        defer { source.remove() }
        try Self.fillEveryColumn(source)
        let schema = try Self.schema(try AppDatabase.inMemory())
        let document = try HouseholdExport(database: source.fixture.database, photos: source.photos).document(in: source.fixture.household)
        let parts = try Self.parts(document)

        for (table, columns) in schema.sorted(by: { $0.key < $1.key }) where Self.tablesNotCarried[table] == nil {
            guard let part = parts[table] else {
                Issue.record("table \(table) is neither exported nor on tablesNotCarried")
                continue
            }
            let exported = Self.fields(of: part)
            for column in columns where column != "household_id" {
                let key = "\(table).\(column)"
                if Self.notCarried[key] != nil {
                    #expect(!exported.contains(column), "\(key) is exported: take it off notCarried")
                } else {
                    #expect(exported.contains(Self.carriedAs[key] ?? column), "\(key) is not in the export: export it, or say why on notCarried")
                }
            }
        }
        // The lists name only what is there.
        for table in Self.tablesNotCarried.keys { #expect(schema[table] != nil, "tablesNotCarried names \(table), which is gone") }
        for key in Array(Self.notCarried.keys) + Array(Self.carriedAs.keys) {
            let (table, column) = key.splitColumn()
            #expect(schema[table]?.contains(column) == true, "\(key) is no column of the schema")
        }
    }

    /// The order the rows of a table are listed in (the export's), by which ids are mapped:
    /// the importer writes them in this order, so the nth row on one server is the nth on the other.
    static let order: [String: String] = [
        "member": "id", "folder": "position, id", "item": "id", "item_event": "id", "product": "barcode", "recipe": "id",
        "recipe_ingredient": "recipe_id, position, id", "recipe_tag": "recipe_id, tag", "cook": "id", "cook_take": "cook_id, id", "meal": "id",
    ]

    /// Columns that hold an id of a row of the same kind without a foreign key (the meal a series
    /// is named after may have been removed).
    static let unenforcedReferences: [String: String] = ["meal.series_id": "meal"]

    /// Columns that hold a photo's key (no foreign key: the photo may be an illustration's name).
    static let photoColumns: Set<String> = ["photo.key", "item.photo", "product.photo", "recipe.photo"]

    /// The household's rows of every carried table, each as its carried columns' values with every
    /// id replaced by the row's place in its table's order and every photo key by its bytes' hash,
    /// sorted: the same text on two servers when they hold the same household.
    static func canonicalRows(_ database: AppDatabase, photos: PhotoStore, householdId: Household.ID) throws -> [String: [String]] {
        try database.writer.read { db in
            let schema = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'").filter { tablesNotCarried[$0] == nil }
            func rows(_ table: String) throws -> [Row] {
                let order = order[table].map { " ORDER BY " + $0 } ?? ""
                if table == "household" { return try Row.fetchAll(db, sql: "SELECT * FROM household WHERE id = ?", arguments: [householdId]) }
                if table == "cook_take" {
                    return try Row.fetchAll(
                        db, sql: "SELECT t.* FROM cook_take t JOIN cook c ON c.id = t.cook_id WHERE c.household_id = ? ORDER BY t.cook_id, t.id",
                        arguments: [householdId])
                }
                return try Row.fetchAll(db, sql: "SELECT * FROM \(table) WHERE household_id = ?\(order)", arguments: [householdId])
            }
            var places: [String: [Int64: Int]] = [:]
            for table in schema where table != "photo" {
                let ids = try rows(table).compactMap { $0["id"] as Int64? }
                places[table] = Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($0.element, $0.offset) })
            }
            var digests: [String: String] = [:]
            for photo in try rows("photo") {
                let key: String = photo["key"]
                let bytes = (try? [UInt8](Data(contentsOf: photos.url(key: key, format: photo["format"], size: .large)))) ?? []
                digests[key] = "photo " + Crypto.hex(Crypto.sha256(bytes))
            }
            var result: [String: [String]] = [:]
            for table in schema {
                var references = try Row.fetchAll(db, sql: "PRAGMA foreign_key_list(\(table))").reduce(into: [String: String]()) {
                    $0[$1["from"] as String] = $1["table"] as String
                }
                for (key, target) in unenforcedReferences where key.splitColumn().0 == table { references[key.splitColumn().1] = target }
                result[table] = try rows(table).map { row in
                    row.columnNames.filter { $0 != "household_id" && notCarried["\(table).\($0)"] == nil }.map { column -> String in
                        let value = row[column] as DatabaseValue
                        let shown: String
                        if column == "id", let id = Int64.fromDatabaseValue(value) {
                            shown = "#\(places[table]?[id] ?? -1)"
                        } else if let target = references[column], let id = Int64.fromDatabaseValue(value) {
                            shown = "\(target) #\(places[target]?[id] ?? -1)"
                        } else if photoColumns.contains("\(table).\(column)"), let key = String.fromDatabaseValue(value), let digest = digests[key] {
                            shown = digest
                        } else {
                            shown = value.description
                        }
                        return "\(column)=\(shown)"
                    }.joined(separator: " ")
                }.sorted()
            }
            return result
        }
    }

    /// Values for the columns the shared fixture leaves NULL everywhere (an undone cook that made an
    /// item and used one up, moves in the history, a member's language, a look-up address…), so
    /// that every carried column holds a value that could be lost.
    static func fillEveryColumn(_ source: ExchangeFixture) throws {
        let home = source.fixture.household.householdId
        let fridge = try source.fixture.firstFolder(.stock), shopping = try source.fixture.firstFolder(.shopping)
        try source.fixture.database.writer.write { db in
            let item = try #require(try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM item WHERE household_id = ?", arguments: [home]))
            try db.execute(sql: "UPDATE cook SET produced_item_id = ?, undone_at = '2026-11-21T08:00:00Z' WHERE household_id = ?", arguments: [item, home])
            try db.execute(
                sql: "UPDATE cook_take SET due = '2026-12-03', from_folder_id = ?, remind_at = '2026-12-02T09:00:00Z', status = 'opened', used_up = 'moved'",
                arguments: [fridge])
            try db.execute(
                sql: "UPDATE item_event SET from_folder_id = ?, to_folder_id = ? WHERE id = (SELECT MIN(id) FROM item_event WHERE household_id = ?)",
                arguments: [shopping, fridge, home])
            try db.execute(sql: "UPDATE member SET language = 'en' WHERE household_id = ?", arguments: [home])
            try db.execute(sql: "UPDATE product SET illustration = 'milk', shelf_life_days = 9 WHERE household_id = ?", arguments: [home])
            try db.execute(sql: "UPDATE household SET product_lookup_url = 'https://lookup.example/{barcode}' WHERE id = ?", arguments: [home])
            // A keep rule (declined by a person) whose refill is on the shopping list, and where refills go.
            try db.execute(
                sql: """
                    INSERT INTO keep_rule (household_id, name, name_key, unit, minimum, refill_to, pack, kind, declined, created_at)
                    VALUES (?, 'Milk', 'milk', 'bottle', 2, 4, 1, 'dairy_eggs', 1, '2026-11-20T08:00:00Z')
                    """, arguments: [home])
            try db.execute(
                sql: "UPDATE item SET keep_rule_id = ?, refill_quantity = 1 WHERE id = ?", arguments: [db.lastInsertedRowID, item])
            try db.execute(sql: "UPDATE household SET keep_folder_id = ?, keep_counts_expired = 1 WHERE id = ?", arguments: [shopping, home])
            // The plan: a note, and a dinner cooked by the fixture's cook, the second of a weekly series.
            let recipe = try #require(try Int64.fetchOne(db, sql: "SELECT MIN(id) FROM recipe WHERE household_id = ?", arguments: [home]))
            let cook = try #require(try Int64.fetchOne(db, sql: "SELECT MIN(id) FROM cook WHERE household_id = ?", arguments: [home]))
            let member = try #require(try Int64.fetchOne(db, sql: "SELECT MIN(id) FROM member WHERE household_id = ?", arguments: [home]))
            try db.execute(
                sql: """
                    INSERT INTO meal (household_id, day, slot, position, note, member_id, created_at, updated_at)
                    VALUES (?, '2026-11-20', 'lunch', 0, 'Eat out', ?, '2026-11-19T08:00:00Z', '2026-11-19T08:00:00Z')
                    """, arguments: [home, member])
            let first = db.lastInsertedRowID
            try db.execute(
                sql: """
                    INSERT INTO meal (household_id, day, slot, position, recipe_id, servings, note, series_id, cook_id, done, member_id, created_at, updated_at)
                    VALUES (?, '2026-11-27', 'dinner', 1, ?, 3, 'Double the rice', ?, ?, 'cooked', ?, '2026-11-19T08:00:00Z', '2026-11-21T08:00:00Z')
                    """, arguments: [home, recipe, first, cook, member])
        }
    }

    @Test("export then import gives another server the same rows, column by column, ids mapped")
    func importWritesWhatWasExported() throws {
        let source = try ExchangeFixture()
        defer { source.remove() }
        try Self.fillEveryColumn(source)
        let target = try EmptyServer()
        defer { target.remove() }
        let report = try target.importer.run(try source.export())

        let before = try Self.canonicalRows(source.fixture.database, photos: source.photos, householdId: source.fixture.household.householdId)
        let after = try Self.canonicalRows(target.database, photos: target.photos, householdId: report.household.householdId)
        // The fixture fills every carried table and column, so none passes by being empty (or NULL) on both sides.
        for (table, rows) in before.sorted(by: { $0.key < $1.key }) {
            #expect(!rows.isEmpty, "the fixture has no \(table) row")
            let columns = Set(rows.flatMap { $0.split(separator: " ").compactMap { $0.split(separator: "=").first.map(String.init) } })
            for column in columns.sorted() {
                for empty in ["NULL", "\"\""]
                where rows.allSatisfy({ $0.contains(" \(column)=\(empty) ") || $0.hasPrefix("\(column)=\(empty) ") || $0.hasSuffix(" \(column)=\(empty)") }) {
                    Issue.record("\(table).\(column) is \(empty) in every row of the fixture: a value dropped there would pass")
                }
            }
            let moved = after[table] ?? []
            #expect(moved == rows, "\(table): \(Set(rows).subtracting(moved).sorted()) became \(Set(moved).subtracting(rows).sorted())")
        }
    }

    @Test("a value the import lost or changed is found, whichever table and column it is in")
    func aLostValueIsFound() throws {
        let source = try ExchangeFixture()
        defer { source.remove() }
        try Self.fillEveryColumn(source)
        let target = try EmptyServer()
        defer { target.remove() }
        let report = try target.importer.run(try source.export())
        let before = try Self.canonicalRows(source.fixture.database, photos: source.photos, householdId: source.fixture.household.householdId)
        #expect(try Self.canonicalRows(target.database, photos: target.photos, householdId: report.household.householdId) == before)
        // As if the import had dropped one field of each kind: text, a reference, a number, a time.
        let losses = [
            "UPDATE item SET note = '' WHERE note <> ''", "UPDATE cook_take SET from_folder_id = NULL",
            "UPDATE recipe_ingredient SET amount = amount + 1 WHERE amount IS NOT NULL", "UPDATE member SET created_at = '2000-01-01T00:00:00Z'",
            "UPDATE folder SET last_stock_folder_id = NULL", "UPDATE item_event SET detail = detail || '.'",
            "UPDATE cook_take SET amount = amount * 2", "UPDATE item_event SET to_folder_id = NULL", "UPDATE member SET language = NULL",
            "UPDATE meal SET series_id = NULL", "UPDATE meal SET done = NULL", "UPDATE meal SET position = position + 1",
        ]
        for loss in losses {
            let server = try EmptyServer()
            defer { server.remove() }
            let moved = try server.importer.run(try source.export("loss.zip"))
            try FileManager.default.removeItem(at: source.folder.appending("loss.zip"))
            try server.database.writer.write { try $0.execute(sql: loss) }
            #expect(
                try Self.canonicalRows(server.database, photos: server.photos, householdId: moved.household.householdId) != before, "\(loss) went unnoticed")
        }
    }
}

/// An `Optional` seen through `Any`.
protocol OptionalValue { var wrapped: Any? { get } }

extension Optional: OptionalValue {
    var wrapped: Any? { self.map { $0 as Any } }
}

extension String {
    /// "table.column" as its two parts.
    func splitColumn() -> (String, String) {
        let parts = split(separator: ".", maxSplits: 1).map(String.init)
        return (parts[0], parts.count > 1 ? parts[1] : "")
    }
}
