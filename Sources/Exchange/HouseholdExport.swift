import Foundation
import Inventory
import ZIPFoundation

/// One household in one ZIP: `household.json` (everything, see `HouseholdDocument`), a CSV per
/// table for spreadsheets, and the photos under `photos/`. Everything is read in one read
/// transaction, so the files agree with each other; nothing of another household is read.
public struct HouseholdExport: Sendable {
    let database: AppDatabase
    let photos: PhotoStore
    let clock: WallClock

    /// The items CSV's columns: a contract with the CSV import (same names, same order).
    public static let itemColumns = ["id", "folder"] + ItemField.csvFields.map(\.rawValue) + ["created_at", "updated_at"]

    public init(database: AppDatabase, photos: PhotoStore, clock: WallClock = .system) {
        self.database = database
        self.photos = photos
        self.clock = clock
    }

    /// The household as `household.json` holds it. Photos whose files are gone from the disk are
    /// left out (and the pictures that used them), so an export never promises a file it lacks.
    public func document(in scope: HouseholdScope) throws -> HouseholdDocument {
        var document = try Households(database: database, clock: clock).document(in: scope, at: Timestamp(clock.now()))
        let present = Set(
            document.photos.filter { photo in
                PhotoSize.allCases.allSatisfy { FileManager.default.fileExists(atPath: photos.url(key: photo.key, format: photo.format, size: $0).path) }
            }.map(\.key))
        document.photos.removeAll { !present.contains($0.key) }
        for index in document.items.indices where document.items[index].photo.map(present.contains) == false { document.items[index].photo = nil }
        for index in document.products.indices where document.products[index].photo.map(present.contains) == false {
            document.products[index].photo = nil
        }
        for index in (document.recipes ?? []).indices where document.recipes?[index].photo.map(present.contains) == false {
            document.recipes?[index].photo = nil
        }
        return document
    }

    /// Writes the ZIP at `url` (which must not exist yet); on failure nothing is left there.
    public func write(in scope: HouseholdScope, to url: URL) throws {
        let document = try document(in: scope)
        do {
            let archive = try Archive(url: url, accessMode: .create)
            try add(Array(try HouseholdDocument.encoder.encode(document)), as: "household.json", to: archive)
            for (name, bytes) in try Self.spreadsheets(document) { try add(bytes, as: name, to: archive) }
            for photo in document.photos {
                for (path, size) in [(photo.large, PhotoSize.large), (photo.small, .small)] {
                    // Photos are compressed already: stored as they are.
                    try archive.addEntry(with: path, fileURL: photos.url(key: photo.key, format: photo.format, size: size), compressionMethod: .none)
                }
            }
        } catch {
            try? FileManager.default.removeItem(at: url)
            throw error
        }
    }

    /// "zaiko-<household>-<date>.zip": the household's name as it is (for `filename*`) and an
    /// ASCII one (letters, digits and dashes only) for clients that take only `filename`.
    public static func fileNames(household: String, on date: Date, timeZone: String) -> (unicode: String, ascii: String) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: timeZone) ?? .gmt
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        let day = String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
        let cleaned = household.unicodeScalars.map { scalar -> String in
            CharacterSet.alphanumerics.contains(scalar) || scalar == "-" || scalar == "_" ? String(scalar) : "-"
        }.joined()
        let ascii = household.unicodeScalars.map { scalar -> String in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || scalar == "-" || scalar == "_") ? String(scalar) : "-"
        }.joined()
        let tidy = { (text: String) in text.split(separator: "-", omittingEmptySubsequences: true).joined(separator: "-") }
        let asciiName = tidy(ascii).isEmpty ? "household" : tidy(ascii)
        let unicodeName = tidy(cleaned).isEmpty ? "household" : tidy(cleaned)
        return ("zaiko-\(unicodeName)-\(day).zip", "zaiko-\(asciiName)-\(day).zip")
    }

    func add(_ bytes: [UInt8], as path: String, to archive: Archive) throws {
        try archive.addEntry(with: path, type: .file, uncompressedSize: Int64(bytes.count), compressionMethod: .deflate) { position, size in
            Data(bytes[Int(position)..<Int(position) + size])
        }
    }

    /// The CSV files, by name. `items.csv` lists what is on the lists (not the trash), in the
    /// columns the CSV import reads; the trash is in `household.json`.
    static func spreadsheets(_ document: HouseholdDocument) throws -> [(String, [UInt8])] {
        let folderNames = Dictionary(document.folders.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        let trashedFolders = Set(document.folders.filter { $0.deletedAt != nil }.map(\.id))
        let memberNames = Dictionary(document.members.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        let itemNames = Dictionary(document.items.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        let live = document.items.filter { $0.deletedAt == nil && !trashedFolders.contains($0.folderId) }
        let items = live.map { item in
            [String(item.id), folderNames[item.folderId] ?? ""] + ItemField.csvFields.map { $0.csvCell(item) } + [
                item.createdAt.description, item.updatedAt.description,
            ]
        }
        let folders = document.folders.map { folder in
            [
                String(folder.id), folder.name, folder.kind, folder.icon, String(folder.position), folder.createdAt.description,
                folder.deletedAt?.description ?? "",
            ]
        }
        let history = document.itemEvents.map { event in
            [
                String(event.itemId), itemNames[event.itemId] ?? "", event.memberId.flatMap { memberNames[$0] } ?? "", event.kind, event.detail,
                event.at.description,
            ]
        }
        let products = document.products.map { product in
            [product.barcode, product.name, product.kind, product.unit, product.folderId.flatMap { folderNames[$0] } ?? "", product.updatedAt.description]
        }
        let members = document.members.map { [$0.name, $0.role] }
        return [
            ("items.csv", try SpreadsheetCSV.bytes(header: itemColumns, rows: items)),
            ("folders.csv", try SpreadsheetCSV.bytes(header: ["id", "name", "kind", "icon", "position", "created_at", "deleted_at"], rows: folders)),
            ("history.csv", try SpreadsheetCSV.bytes(header: ["item_id", "item", "member", "kind", "detail", "at"], rows: history)),
            ("products.csv", try SpreadsheetCSV.bytes(header: ["barcode", "name", "kind", "unit", "folder", "updated_at"], rows: products)),
            ("members.csv", try SpreadsheetCSV.bytes(header: ["name", "role"], rows: members)),
        ] + (try recipeSpreadsheets(document))
    }
}
