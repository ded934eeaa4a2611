import Foundation
import GRDB
import Imaging
import Inventory
import ZIPFoundation

/// Creates a NEW household on this server from another server's export (`HouseholdExport`).
/// The archive is checked first (format and version, every path inside, sizes, references,
/// photos); then the photo files are written through the photo store and every row is inserted
/// in one transaction, with an owner invitation. On any failure nothing stays behind.
///
/// Members: passwords never leave a server, so the old members arrive without one. Each becomes a
/// member of the new household with their name and role (the history still says who did what)
/// and their login when it is free here (else `login-2`, …); they cannot sign in until the
/// operator prints them a link with `zaiko user reset-password LOGIN`. The owner invitation lets
/// the owner in with a new account instead.
public struct HouseholdImport: Sendable {
    let database: AppDatabase
    let photos: PhotoStore
    let clock: WallClock

    static let maxEntries = 200_000
    static let maxDocumentBytes: UInt64 = 256 * 1024 * 1024
    static let maxPhotoBytes: UInt64 = 20 * 1024 * 1024
    static let maxTotalBytes: UInt64 = 8 * 1024 * 1024 * 1024

    public init(database: AppDatabase, photos: PhotoStore, clock: WallClock = .system) {
        self.database = database
        self.photos = photos
        self.clock = clock
    }

    public func run(_ url: URL) throws -> HouseholdImportReport {
        guard FileManager.default.isReadableFile(atPath: url.path) else { throw HouseholdImportError.unreadable(url.path) }
        let archive: Archive
        do {
            archive = try Archive(url: url, accessMode: .read)
        } catch {
            throw HouseholdImportError.notAZip(url.lastPathComponent)
        }
        let entries = try Self.checkedEntries(archive)
        guard let documentEntry = entries["household.json"] else { throw HouseholdImportError.missingDocument }
        let document = try Self.decode(try Self.read(documentEntry, from: archive, limit: Self.maxDocumentBytes))
        try Self.checkReferences(document)

        // Photos: each checked and written under a new key; removed again if anything fails.
        var staged: [(old: String, new: String, format: String, createdAt: Timestamp)] = []
        do {
            for photo in document.photos {
                var sizes: [[UInt8]] = []
                for path in [photo.large, photo.small] {
                    guard let entry = entries[path] else { throw HouseholdImportError.badPhoto(path) }
                    let bytes = try Self.read(entry, from: archive, limit: Self.maxPhotoBytes)
                    guard ImageFormat.detect(bytes)?.rawValue == photo.format else { throw HouseholdImportError.badPhoto(path) }
                    sizes.append(bytes)
                }
                let key = try photos.writeFiles(large: sizes[0], small: sizes[1], format: photo.format)
                staged.append((photo.key, key, photo.format, photo.createdAt))
            }
            return try Households(database: database, clock: clock).importDocument(document, staged: staged, photos: photos)
        } catch {
            for photo in staged { photos.removeFiles(key: photo.new, format: photo.format) }
            if let error = error as? DatabaseError {
                throw HouseholdImportError.refusedByDatabase(error.message ?? "\(error.resultCode)")
            }
            throw error
        }
    }

    /// Every entry by path, after refusing unsafe paths, links and absurd sizes.
    static func checkedEntries(_ archive: Archive) throws -> [String: Entry] {
        var entries: [String: Entry] = [:]
        var total: UInt64 = 0
        for entry in archive {
            guard entries.count < maxEntries else { throw HouseholdImportError.tooLarge("more than \(maxEntries) files") }
            let path = entry.path
            guard isSafe(path) else { throw HouseholdImportError.unsafePath(path) }
            switch entry.type {
            case .directory: continue
            case .symlink: throw HouseholdImportError.unsafePath(path)
            case .file: break
            }
            total += entry.uncompressedSize
            guard total <= maxTotalBytes else { throw HouseholdImportError.tooLarge("more than \(maxTotalBytes / 1_073_741_824) GiB unpacked") }
            entries[path] = entry
        }
        return entries
    }

    /// A relative path that stays inside the archive: no leading slash, no `..`, no backslash or NUL.
    static func isSafe(_ path: String) -> Bool {
        guard !path.isEmpty, !path.hasPrefix("/"), !path.contains("\\"), !path.contains("\0") else { return false }
        return !path.split(separator: "/", omittingEmptySubsequences: false).contains { $0 == ".." || $0 == "." }
    }

    /// An entry's bytes, refused past `limit` whatever its header claims.
    static func read(_ entry: Entry, from archive: Archive, limit: UInt64) throws -> [UInt8] {
        guard entry.uncompressedSize <= limit else { throw HouseholdImportError.tooLarge("\(entry.path) is over \(limit / 1_048_576) MiB") }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(entry.uncompressedSize))
        do {
            _ = try archive.extract(entry) { chunk in
                guard UInt64(bytes.count + chunk.count) <= limit else { throw HouseholdImportError.tooLarge("\(entry.path) is over \(limit / 1_048_576) MiB") }
                bytes.append(contentsOf: chunk)
            }
        } catch let error as HouseholdImportError {
            throw error
        } catch {
            throw HouseholdImportError.damagedDocument("\(entry.path) cannot be unpacked")
        }
        return bytes
    }

    /// The format and its version first (a newer export is told apart from a damaged one), then the whole.
    static func decode(_ bytes: [UInt8]) throws -> HouseholdDocument {
        struct Header: Decodable {
            let format: String?
            let formatVersion: Int?
        }
        let data = Data(bytes)
        guard (try? JSONSerialization.jsonObject(with: data)) != nil else { throw HouseholdImportError.damagedDocument("not valid JSON") }
        guard let header = try? HouseholdDocument.decoder.decode(Header.self, from: data), header.format == HouseholdDocument.formatName,
            let version = header.formatVersion
        else { throw HouseholdImportError.notAnExport }
        if version > HouseholdDocument.currentVersion { throw HouseholdImportError.newerVersion(version) }
        if version < 1 { throw HouseholdImportError.unknownVersion(version) }
        do {
            return try HouseholdDocument.decoder.decode(HouseholdDocument.self, from: data)
        } catch let DecodingError.keyNotFound(key, _) {
            throw HouseholdImportError.damagedDocument("\(key.stringValue) is missing")
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            throw HouseholdImportError.damagedDocument("\(place(context)) has the wrong type")
        } catch let DecodingError.dataCorrupted(context) where !context.codingPath.isEmpty {
            throw HouseholdImportError.damagedDocument("\(place(context)) has a value this server cannot read")
        } catch {
            throw HouseholdImportError.damagedDocument("not valid JSON")
        }
    }

    /// Where in the document a value is, as `items.3.unit`.
    private static func place(_ context: DecodingError.Context) -> String {
        context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
    }

    /// Every id a part refers to is in the file; pictures and roles are ones this server knows.
    static func checkReferences(_ document: HouseholdDocument) throws {
        let folders = Set(document.folders.map(\.id))
        let items = Set(document.items.map(\.id))
        let members = Set(document.members.map(\.id))
        let photos = Set(document.photos.map(\.key))
        func check(_ condition: Bool, _ problem: String) throws { if !condition { throw HouseholdImportError.inconsistent(problem) } }
        try check(folders.count == document.folders.count, "two folders share an id")
        try check(items.count == document.items.count, "two items share an id")
        try check(members.count == document.members.count, "two members share an id")
        try check(photos.count == document.photos.count, "two photos share a key")
        try check(document.members.allSatisfy { Role(rawValue: $0.role) != nil }, "a member has an unknown role")
        try check(document.folders.allSatisfy { FolderKind(rawValue: $0.kind) != nil }, "a folder has an unknown kind")
        try check(document.folders.allSatisfy { $0.lastStockFolderId.map(folders.contains) ?? true }, "a folder refers to a folder that is not in the file")
        try check(document.photos.allSatisfy { ["jpeg", "webp"].contains($0.format) }, "a photo has an unknown format")
        try check(document.items.allSatisfy { folders.contains($0.folderId) }, "an item refers to a folder that is not in the file")
        try check(document.items.allSatisfy { $0.photo.map(photos.contains) ?? true }, "an item refers to a photo that is not in the file")
        try check(
            document.items.allSatisfy { $0.illustration.map(Illustrations.slugs.contains) ?? true }
                && document.products.allSatisfy { $0.illustration.map(Illustrations.slugs.contains) ?? true },
            "a picture names an illustration this server does not have")
        try check(document.itemEvents.allSatisfy { items.contains($0.itemId) }, "a history line refers to an item that is not in the file")
        try check(document.itemEvents.allSatisfy { $0.memberId.map(members.contains) ?? true }, "a history line refers to a member who is not in the file")
        try check(document.products.allSatisfy { $0.folderId.map(folders.contains) ?? true }, "a product refers to a folder that is not in the file")
        try check(document.products.allSatisfy { $0.photo.map(photos.contains) ?? true }, "a product refers to a photo that is not in the file")
        try check(
            document.products.allSatisfy { $0.shelfLifeDays.map(ShelfLife.plausible.contains) ?? true },
            "a product keeps for a number of days this server does not take")
        let shelfLives = document.shelfLives ?? []
        try check(shelfLives.allSatisfy { $0.folderId.map(folders.contains) ?? true }, "a shelf life refers to a folder that is not in the file")
        try check(shelfLives.allSatisfy { $0.itemId.map(items.contains) ?? true }, "a shelf life refers to an item that is not in the file")
        try check(
            shelfLives.allSatisfy { ($0.productKey.hasPrefix("barcode:") || $0.productKey.hasPrefix("name:")) && $0.productKey.unicodeScalars.count <= 420 },
            "a shelf life names its product in a way this server does not know")
        let keepRules = document.keepRules ?? []
        let ruleIds = Set(keepRules.map(\.id))
        try check(ruleIds.count == keepRules.count, "two keep rules have the same id")
        try check(document.items.allSatisfy { $0.keepRuleId.map(ruleIds.contains) ?? true }, "an item refers to a keep rule that is not in the file")
        try check(document.household.keepFolderId.map(folders.contains) ?? true, "the keep rules' list is a folder that is not in the file")
        try check(
            keepRules.allSatisfy { rule in
                (1...100).contains(rule.name.count) && (1...400).contains(rule.nameKey.count) && ItemUnit(rawValue: rule.unit) != nil
                    && ItemKind(rawValue: rule.kind) != nil && rule.minimum > 0 && rule.refillTo >= rule.minimum && rule.pack > 0
                    && max(rule.minimum, rule.refillTo, rule.pack) <= Quantity.maximum
            }, "a keep rule holds an amount, unit or name this server does not take")
        let uses = document.stockUses ?? []
        try check(uses.allSatisfy { $0.itemId.map(items.contains) ?? true }, "a line of the use ledger refers to an item that is not in the file")
        try check(
            uses.allSatisfy { use in
                LedgerEvent(rawValue: use.event) != nil && ItemUnit(rawValue: use.unit) != nil && ItemKind(rawValue: use.kind) != nil
                    && (1...400).contains(use.name.unicodeScalars.count) && (1...400).contains(use.nameFolded.unicodeScalars.count)
                    && use.quantity > 0 && use.quantity <= Quantity.maximum
            }, "a line of the use ledger holds an event, amount, unit or name this server does not take")
        try checkRecipeReferences(document)
    }
}
