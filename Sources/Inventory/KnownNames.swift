import Foundation
import GRDB
import Tagged

/// A name the household has used, with what its latest item had, to suggest in the editor's name
/// field: picking it fills the unit, kind, picture and the due date it usually gets.
public struct KnownName: Sendable, Equatable {
    public let name: String
    public let unit: ItemUnit
    public let kind: ItemKind
    public let picture: Picture?
    /// The due date it usually gets in the stock list at hand (`ShelfLife`); nil when none is learned.
    public let due: CalendarDay?
}

extension Items {
    /// How many names the editor suggests: the most used.
    public static let knownNamesShown = 300

    /// The household's names, the most used first (then the latest used), each with its latest
    /// item's unit, kind and picture, and the due date it usually gets in `stockFolderId`.
    public func knownNames(in scope: HouseholdScope, stockFolderId: Folder.ID?) throws -> [KnownName] {
        let time = stamp()
        return try database.writer.read { db in
            // One row per name (ASCII letters' case aside); the bare columns are MAX(id)'s row's.
            let rows = try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT name, unit, kind, photo, illustration, barcode, COUNT(*) AS uses, MAX(id) AS latest
                        FROM item WHERE household_id = ? GROUP BY lower(trim(name)) ORDER BY uses DESC, latest DESC LIMIT ?
                        """), arguments: [scope.householdId, Self.knownNamesShown])
            let usual = try ShelfLife.usualDays(db, householdId: scope.householdId, folderId: stockFolderId)
            let today = try ShelfLife.today(db, scope.householdId, at: time)
            return rows.compactMap { row in
                guard let unit = ItemUnit(rawValue: row["unit"]), let kind = ItemKind(rawValue: row["kind"]) else { return nil }
                let name: String = row["name"]
                let photo: String? = row["photo"]
                let illustration: String? = row["illustration"]
                let key = ShelfLife.key(name: name, unit: unit, barcode: row["barcode"])
                return KnownName(
                    name: name, unit: unit, kind: kind, picture: photo.map(Picture.photo) ?? illustration.map(Picture.illustration),
                    due: usual[key].map { today.adding(days: $0) })
            }
        }
    }
}

extension ShelfLife {
    /// The usual shelf life of every product the household has learned, in `folderId` (see
    /// `usualDays(_:householdId:key:folderId:)`), read in one pass.
    static func usualDays(_ db: Database, householdId: Household.ID, folderId: Folder.ID?) throws -> [String: Int] {
        var here: [String: [Int]] = [:]
        var anywhere: [String: [Int]] = [:]
        let samples = try Row.fetchCursor(
            db.cachedStatement(sql: "SELECT product_key, folder_id, days FROM shelf_life WHERE household_id = ? ORDER BY id DESC"),
            arguments: [householdId])
        while let sample = try samples.next() {
            let key: String = sample["product_key"]
            let days: Int = sample["days"]
            let folder: Folder.ID? = sample["folder_id"]
            if anywhere[key, default: []].count < consulted { anywhere[key, default: []].append(days) }
            if let folderId, folder == folderId, here[key, default: []].count < consulted { here[key, default: []].append(days) }
        }
        var usual = anywhere.compactMapValues(median).merging(here.compactMapValues(median)) { _, inFolder in inFolder }
        // Shelf lives set by hand on a product page stand for what was learned.
        let set = try Row.fetchCursor(
            db.cachedStatement(sql: "SELECT barcode, shelf_life_days FROM product WHERE household_id = ? AND shelf_life_days IS NOT NULL"),
            arguments: [householdId])
        while let row = try set.next() { usual[key(barcode: row[0])] = row[1] }
        return usual
    }
}
