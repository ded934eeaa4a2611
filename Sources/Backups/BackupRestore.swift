import Foundation
import Inventory
import ZIPFoundation

/// Checks a backup archive and puts it back as a data folder. Everything is checked (every
/// entry's name, size and sha256, SQLite's integrity check, the schema) in a temporary folder
/// beside the target before the target is touched; the folder is renamed into place at the end.
public enum BackupRestore {
    /// What a restore did.
    public struct Outcome: Sendable {
        public let manifest: BackupManifest
        /// The schema the database has now (newer than the manifest's when it was migrated).
        public let schemaVersion: String
        /// Where the data that was in the target folder went (`--replace`), nil if it was empty.
        public let movedAside: URL?
    }

    /// Checks the whole archive without restoring it; its manifest when every check passes.
    public static func verify(archive: URL) throws -> BackupManifest {
        WorkFiles.sweep(FileManager.default.temporaryDirectory, includingOwn: false)
        let scratch = WorkFiles.new(in: FileManager.default.temporaryDirectory, "verify")
        defer { try? FileManager.default.removeItem(at: scratch) }
        return try unpack(archive: archive, into: scratch)
    }

    /// Restores `archive` as the data folder `target`. The target must be missing or empty unless
    /// `replace`: then its current contents are first moved to a folder beside it (returned).
    public static func restore(archive: URL, into target: URL, replace: Bool, now: Date = Date()) throws -> Outcome {
        let manager = FileManager.default
        let target = target.standardizedFileURL
        let occupied = try !isEmptyDataFolder(target)
        if occupied && !replace { throw BackupError.targetNotEmpty(target.path) }
        do {
            try manager.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw BackupError.write("cannot create the folder \(target.deletingLastPathComponent().path)")
        }
        WorkFiles.sweep(target.deletingLastPathComponent(), includingOwn: false)
        let staging = WorkFiles.beside(target, "restore")
        defer { try? manager.removeItem(at: staging) }
        let manifest = try unpack(archive: archive, into: staging)
        let schemaVersion = try migrate(staging.appendingPathComponent(ArchiveLayout.database))
        do {
            try manager.createDirectory(at: staging.appendingPathComponent("photos"), withIntermediateDirectories: true)
            for folder in ["photos", ""] { try DurableFiles.sync(staging.appendingPathComponent(folder), directory: true) }
        } catch {
            throw error as? BackupError ?? BackupError.write(DurableFiles.describe(error))
        }
        // Everything checked: only renames from here on.
        var aside: URL?
        if occupied {
            let moved = target.deletingLastPathComponent().appendingPathComponent(
                "\(target.lastPathComponent).before-restore-\(BackupArchive.defaultFileName(now: now).dropFirst("zaiko-backup-".count).dropLast(4))")
            try DurableFiles.rename(target, to: moved)
            aside = moved
        } else if manager.fileExists(atPath: target.path) {
            try manager.removeItem(at: target)
        }
        try DurableFiles.rename(staging, to: target)
        // The backups kept in the data folder stay with it, whatever was restored.
        if let aside, manager.fileExists(atPath: aside.appendingPathComponent("backups").path) {
            try? DurableFiles.rename(aside.appendingPathComponent("backups"), to: target.appendingPathComponent("backups"))
        }
        try DurableFiles.sync(target.deletingLastPathComponent(), directory: true)
        return Outcome(manifest: manifest, schemaVersion: schemaVersion, movedAside: aside)
    }

    /// True when `folder` is missing or holds nothing but empty folders (a fresh `uploads`).
    static func isEmptyDataFolder(_ folder: URL) throws -> Bool {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: folder.path, isDirectory: &isDirectory) else { return true }
        guard isDirectory.boolValue else { throw BackupError.targetNotEmpty(folder.path) }
        guard let walker = manager.enumerator(at: folder, includingPropertiesForKeys: [.isDirectoryKey]) else { return false }
        for case let url as URL in walker where (try? url.resourceValues(forKeys: [.isDirectoryKey]))?.isDirectory != true {
            return false
        }
        return true
    }

    /// Extracts every entry into `folder` (created here) and checks it all; removes `folder` on failure.
    static func unpack(archive url: URL, into folder: URL) throws -> BackupManifest {
        let manager = FileManager.default
        do {
            try manager.createDirectory(at: folder.appendingPathComponent("photos"), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw BackupError.write("cannot create the folder \(folder.path)")
        }
        do {
            let archive: Archive
            do {
                archive = try Archive(url: url, accessMode: .read)
            } catch {
                throw BackupError.unreadableArchive(url.path)
            }
            let manifest = try readManifest(archive)
            let expected = Dictionary(manifest.files.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
            // Names first: nothing is extracted from an archive holding one entry that is not ours.
            var seen: Set<String> = []
            for entry in archive where entry.path != ArchiveLayout.manifest {
                guard entry.type == .file, ArchiveLayout.isAllowedFile(entry.path), expected[entry.path] != nil, seen.insert(entry.path).inserted
                else { throw BackupError.unexpectedEntry(entry.path) }
            }
            if let missing = manifest.files.first(where: { !seen.contains($0.path) }) { throw BackupError.missingEntry(missing.path) }
            guard seen.contains(ArchiveLayout.database) else { throw BackupError.missingEntry(ArchiveLayout.database) }
            for entry in archive where entry.path != ArchiveLayout.manifest {
                try extract(entry, of: archive, expected: expected[entry.path]!, to: folder.appendingPathComponent(entry.path))
            }
            try checkDatabase(folder.appendingPathComponent(ArchiveLayout.database), manifest: manifest, files: seen)
            return manifest
        } catch {
            try? manager.removeItem(at: folder)
            if error is BackupError { throw error }
            throw BackupError.unreadableArchive(url.path)
        }
    }

    static func readManifest(_ archive: Archive) throws -> BackupManifest {
        guard let entry = archive[ArchiveLayout.manifest], entry.type == .file, entry.uncompressedSize <= ArchiveLayout.largestManifest else {
            throw BackupError.unreadableManifest
        }
        var data = Data()
        _ = try archive.extract(entry) { chunk in
            data.append(chunk)
            if data.count > ArchiveLayout.largestManifest { throw BackupError.unreadableManifest }
        }
        let manifest = try BackupManifest.decode(data)
        guard manifest.formatVersion == BackupManifest.currentFormatVersion else { throw BackupError.unknownFormat(manifest.formatVersion) }
        if let strange = manifest.files.first(where: { !ArchiveLayout.isAllowedFile($0.path) }) { throw BackupError.unexpectedEntry(strange.path) }
        return manifest
    }

    /// Writes one entry while hashing it; stops as soon as it grows past the size its manifest gives.
    static func extract(_ entry: Entry, of archive: Archive, expected: BackupManifest.File, to url: URL) throws {
        guard FileManager.default.createFile(atPath: url.path, contents: nil, attributes: [.posixPermissions: 0o600]),
            let handle = FileHandle(forWritingAtPath: url.path)
        else { throw BackupError.write("cannot create \(url.path)") }
        defer { try? handle.close() }
        var hasher = SHA256Stream.Hasher()
        do {
            _ = try archive.extract(entry) { chunk in
                hasher.update(chunk)
                if hasher.size > expected.size { throw BackupError.sizeMismatch(expected.path) }
                do {
                    try handle.write(contentsOf: chunk)
                } catch {
                    throw BackupError.write("cannot write \(url.path): \(DurableFiles.describe(error))")
                }
            }
        } catch let error as BackupError {
            throw error
        } catch {
            // A CRC that does not match, a deflate stream that ends early: ZIPFoundation's own checks.
            throw BackupError.damagedEntry(expected.path)
        }
        guard hasher.size == expected.size else { throw BackupError.sizeMismatch(expected.path) }
        guard hasher.finish() == expected.sha256 else { throw BackupError.checksumMismatch(expected.path) }
        try handle.synchronize()
    }

    /// SQLite's full integrity check, a schema this build knows and makes exactly so, the manifest's row counts, and
    /// both files of every photo row present.
    static func checkDatabase(_ file: URL, manifest: BackupManifest, files: Set<String>) throws {
        let contents: DatabaseContents
        let objects: Set<SchemaObject>
        do {
            (contents, objects) = try DatabaseFiles.inspect(file)
        } catch InventoryError.corruptDatabase(_, let detail) {
            throw BackupError.databaseDamaged(detail)
        }
        if let unknown = contents.migrations.first(where: { !AppDatabase.knownMigrations.contains($0) }) { throw BackupError.newerSchema(unknown) }
        try checkSchema(objects, migrations: contents.migrations)
        if let table = Set(contents.rowCounts.keys).union(manifest.rowCounts.keys).sorted().first(where: { contents.rowCounts[$0] != manifest.rowCounts[$0] }) {
            throw BackupError.rowCountMismatch(table)
        }
        for photo in contents.photos {
            for name in ArchiveLayout.photoFiles(key: photo.key, format: photo.format) where !files.contains(ArchiveLayout.photoEntry(name)) {
                throw BackupError.photoNotInArchive(name)
            }
        }
    }

    /// The schema must be exactly what Zaiko's migrations make, up to the archive's last one:
    /// a trigger, view, table or index of any other origin would run in the live server.
    static func checkSchema(_ objects: Set<SchemaObject>, migrations: [String]) throws {
        let expected = try migrations.last.flatMap { try SchemaObject.made(upTo: $0) } ?? []
        if let foreign = objects.subtracting(expected).sorted().first { throw BackupError.foreignSchemaObject(foreign.type, foreign.name) }
        if let missing = expected.subtracting(objects).sorted().first { throw BackupError.missingSchemaObject(missing.type, missing.name) }
    }

    /// Brings an older schema up to this build's (an archive from an older Zaiko) and folds the
    /// WAL into the file; the schema version the database has now.
    static func migrate(_ file: URL) throws -> String {
        do {
            let database = try AppDatabase.open(at: file)
            try database.close()
        } catch {
            throw BackupError.databaseDamaged(DurableFiles.describe(error))
        }
        return AppDatabase.knownMigrations.last ?? ""
    }
}
