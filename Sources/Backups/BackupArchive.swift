import Foundation
import GRDB
import Inventory
import ZIPFoundation

/// Writes one ZIP holding a consistent snapshot of the database, every photo file that snapshot
/// uses, and `manifest.json`, while the server keeps serving and writing.
public enum BackupArchive {
    /// Writes the archive to a temporary name beside `destination`, fsyncs it, renames it to `destination`.
    public static func write(
        database: AppDatabase, photosDirectory: URL, to destination: URL, zaikoVersion: String, now: Date = Date()
    ) throws -> BackupManifest {
        try write(
            snapshot: { file, dropping in try database.snapshot(to: file, dropping: dropping) }, photosDirectory: photosDirectory, to: destination,
            zaikoVersion: zaikoVersion, now: now)
    }

    /// `write` for the command line: opens the server's database file beside a running server,
    /// backs it up, and closes without a checkpoint (the server's own connections stay as they are).
    public static func write(
        databaseFile: URL, photosDirectory: URL, to destination: URL, zaikoVersion: String, now: Date = Date()
    ) throws -> BackupManifest {
        let database = try AppDatabase.open(at: databaseFile)
        defer { database.closeBesideRunningServer() }
        return try write(database: database, photosDirectory: photosDirectory, to: destination, zaikoVersion: zaikoVersion, now: now)
    }

    /// A file name with the date and time (UTC) it was made: `zaiko-backup-20261122-214012.zip`.
    public static func defaultFileName(now: Date = Date()) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        return "zaiko-backup-\(formatter.string(from: now)).zip"
    }

    /// `write` over any connection (tests back up databases of older schemas).
    static func write(
        source: any DatabaseReader, photosDirectory: URL, to destination: URL, zaikoVersion: String, now: Date,
        writeZip: ZipWriter = BackupArchive.writeZip(at:files:manifest:now:)
    ) throws -> BackupManifest {
        try write(
            snapshot: { file, dropping in try DatabaseFiles.snapshot(of: source, to: file, dropping: dropping) }, photosDirectory: photosDirectory,
            to: destination, zaikoVersion: zaikoVersion, now: now, writeZip: writeZip)
    }

    /// Copies a database into a file, leaving out the photo rows its second argument names
    /// (`DatabaseFiles.snapshot`).
    typealias Snapshot = (_ file: URL, _ dropping: (DatabaseContents) throws -> [String]) throws -> DatabaseContents

    /// The work behind `write`: `snapshot` copies the database.
    /// `writeZip` is what writes the archive's bytes (tests give one that fails like a full disk).
    static func write(
        snapshot: Snapshot, photosDirectory: URL, to destination: URL, zaikoVersion: String, now: Date,
        writeZip: ZipWriter = BackupArchive.writeZip(at:files:manifest:now:)
    ) throws -> BackupManifest {
        let manager = FileManager.default
        let folder = destination.deletingLastPathComponent()
        guard !manager.fileExists(atPath: destination.path) else { throw BackupError.destinationExists(destination.path) }
        do {
            try manager.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw BackupError.write("cannot create the folder \(folder.path)")
        }
        WorkFiles.sweep(folder, includingOwn: false)
        let work = WorkFiles.beside(destination, "snapshot")
        let archiveFile = WorkFiles.beside(destination, "archive")
        defer {
            try? manager.removeItem(at: work)
            try? manager.removeItem(at: archiveFile)
        }
        do {
            try manager.createDirectory(at: work.appendingPathComponent("photos"), withIntermediateDirectories: true)
            // Photo files are linked before the snapshot: a photo the snapshot uses is either linked
            // here or was saved after this point (too new for the garbage collector to remove), so a
            // collection running during the backup cannot take a file the snapshot needs.
            let linked = linkPhotos(from: photosDirectory, into: work.appendingPathComponent("photos"))
            let databaseCopy = work.appendingPathComponent(ArchiveLayout.database)
            let contents = try snapshot(databaseCopy) { contents in
                try photosToLeaveOut(contents) { key, format in
                    ArchiveLayout.photoFiles(key: key, format: format).allSatisfy {
                        linked.contains($0) || manager.fileExists(atPath: photosDirectory.appendingPathComponent($0).path)
                    }
                }
            }
            var files: [(entry: String, url: URL)] = [(ArchiveLayout.database, databaseCopy)]
            for photo in contents.photos {
                for name in ArchiveLayout.photoFiles(key: photo.key, format: photo.format) {
                    let url = linked.contains(name) ? work.appendingPathComponent("photos/\(name)") : photosDirectory.appendingPathComponent(name)
                    files.append((ArchiveLayout.photoEntry(name), url))
                }
            }
            var listed: [BackupManifest.File] = []
            for file in files {
                let digest = try SHA256Stream.digest(of: file.url)
                listed.append(.init(path: file.entry, size: digest.size, sha256: digest.sha256))
            }
            let manifest = BackupManifest(
                formatVersion: BackupManifest.currentFormatVersion, schemaVersion: contents.schemaVersion, migrations: contents.migrations,
                zaikoVersion: zaikoVersion, createdAt: Timestamp(now), rowCounts: contents.rowCounts,
                files: listed.sorted { $0.path < $1.path })
            try writeZip(archiveFile, files, manifest.encoded(), now)
            chmod(archiveFile.path, 0o600)
            try DurableFiles.sync(archiveFile)
            guard !manager.fileExists(atPath: destination.path) else { throw BackupError.destinationExists(destination.path) }
            try DurableFiles.rename(archiveFile, to: destination)
            try DurableFiles.sync(folder, directory: true)
            return manifest
        } catch {
            throw BackupError.writing(error, in: folder)
        }
    }

    /// Hard links of every file in the photos folder (same file system); the names linked.
    /// Where links are impossible the live files are read instead.
    static func linkPhotos(from photos: URL, into staging: URL) -> Set<String> {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: photos.path)) ?? []
        var linked: Set<String> = []
        for name in names where ArchiveLayout.isPhotoFileName(name) {
            if link(photos.appendingPathComponent(name).path, staging.appendingPathComponent(name).path) == 0 { linked.insert(name) }
        }
        return linked
    }

    /// The photo rows a snapshot leaves out: those without files that nothing uses (a save that
    /// failed, a photo collected meanwhile). One an item or product uses must be there.
    static func photosToLeaveOut(_ contents: DatabaseContents, hasFiles: (String, String) -> Bool) throws -> [String] {
        let lost = contents.photos.filter { !hasFiles($0.key, $0.format) }
        if let used = lost.first(where: { contents.usedPhotoKeys.contains($0.key) }) {
            throw BackupError.photoMissing(ArchiveLayout.photoFiles(key: used.key, format: used.format)[0])
        }
        return lost.map(\.key)
    }

    /// Writes the ZIP at `url` from the files (entry name, file) and the manifest's bytes.
    typealias ZipWriter = (_ url: URL, _ files: [(entry: String, url: URL)], _ manifest: Data, _ now: Date) throws -> Void

    static func writeZip(at url: URL, files: [(entry: String, url: URL)], manifest: Data, now: Date) throws {
        let archive = try Archive(url: url, accessMode: .create)
        for file in files {
            // Photos are JPEG or WebP already: deflating them again costs time and saves nothing.
            let method: CompressionMethod = file.entry == ArchiveLayout.database ? .deflate : .none
            try archive.addEntry(with: file.entry, fileURL: file.url, compressionMethod: method)
        }
        try archive.addEntry(
            with: ArchiveLayout.manifest, type: .file, uncompressedSize: Int64(manifest.count), modificationDate: now,
            permissions: 0o600, compressionMethod: .deflate
        ) { position, size in
            manifest.subdata(in: Int(position)..<min(Int(position) + size, manifest.count))
        }
    }
}
