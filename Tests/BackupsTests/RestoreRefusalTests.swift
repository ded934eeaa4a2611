import Foundation
import GRDB
import Inventory
import TestSupport
import Testing

@testable import Backups

/// Every damaged or hostile archive is refused with one sentence, and nothing is written: not the
/// target folder, not a work folder beside it.
@Suite("Restore refuses damaged archives")
struct RestoreRefusalTests {
    /// A good archive of a household with photos, rewritten by `tamper`, then restored.
    func refusal(_ tamper: (inout [(path: String, data: Data)]) throws -> Void) throws -> BackupError? {
        let server = try ServerData()
        defer { server.close() }
        try server.addItems(4, photos: 2)
        let (archive, _) = try server.backup()
        var items = try entries(of: archive)
        try tamper(&items)
        let tampered = server.folder.appending("tampered.zip")
        try writeZip(items, to: tampered)
        return try refusal(of: tampered, in: server.folder)
    }

    /// Restores `archive` into `<folder>/restore-here`; the error, after checking nothing was written.
    func refusal(of archive: URL, in folder: TemporaryFolder) throws -> BackupError? {
        let before = listing(folder.url)
        let target = folder.appending("restore-here")
        var caught: BackupError?
        do {
            _ = try BackupRestore.restore(archive: archive, into: target, replace: false)
        } catch let error as BackupError {
            caught = error
        }
        #expect(!FileManager.default.fileExists(atPath: target.path), "the target was written")
        #expect(listing(folder.url) == before, "something was left beside the target")
        if let caught {
            #expect(caught.description.hasSuffix("."))
            #expect(!caught.description.contains("\n"))
        }
        return caught
    }

    @Test("one flipped byte in the database: its checksum does not match")
    func flippedDatabaseByte() throws {
        let error = try refusal { items in
            let index = try #require(items.firstIndex { $0.path == "zaiko.sqlite" })
            items[index].data[items[index].data.count / 2] ^= 0x01
        }
        #expect(error == .checksumMismatch("zaiko.sqlite"))
    }

    @Test("a flipped byte with a manifest made to match is caught by SQLite's integrity check")
    func flippedDatabaseByteWithMatchingManifest() throws {
        let error = try refusal { items in
            let index = try #require(items.firstIndex { $0.path == "zaiko.sqlite" })
            // Page 2's b-tree page type byte (page size 4096): the file opens, the check fails.
            items[index].data[4096] = 0x07
            let data = items[index].data
            items = try replacingManifest(items) { manifest in
                let file = manifest.files.firstIndex { $0.path == "zaiko.sqlite" }!
                manifest.files[file].sha256 = sha256(data)
            }
        }
        guard case .databaseDamaged = error else {
            Issue.record("expected databaseDamaged, got \(String(describing: error))")
            return
        }
    }

    @Test("a photo file missing from the archive its manifest lists")
    func missingPhoto() throws {
        var removed = ""
        let error = try refusal { items in
            let index = try #require(items.firstIndex { $0.path.hasPrefix("photos/") })
            removed = items[index].path
            items.remove(at: index)
        }
        #expect(error == .missingEntry(removed))
    }

    @Test("a photo file missing from both the archive and its manifest: the database still uses it")
    func missingPhotoAndManifestLine() throws {
        var removed = ""
        let error = try refusal { items in
            let index = try #require(items.firstIndex { $0.path.hasPrefix("photos/") })
            removed = items[index].path
            items.remove(at: index)
            items = try replacingManifest(items) { $0.files.removeAll { $0.path == removed } }
        }
        #expect(error == .photoNotInArchive(String(removed.dropFirst("photos/".count))))
    }

    @Test("a wrong checksum in the manifest")
    func wrongChecksum() throws {
        var changed = ""
        let error = try refusal { items in
            items = try replacingManifest(items) { manifest in
                let index = manifest.files.firstIndex { $0.path.hasPrefix("photos/") }!
                changed = manifest.files[index].path
                manifest.files[index].sha256 = String(repeating: "0", count: 64)
            }
        }
        #expect(error == .checksumMismatch(changed))
    }

    @Test("paths that climb out or start at the root", arguments: ["../../etc/x", "/etc/x", "photos/../../x", "photos/../zaiko.sqlite"])
    func hostilePath(_ path: String) throws {
        let error = try refusal { items in items.append((path, Data("owned".utf8))) }
        #expect(error == .unexpectedEntry(path))
        #expect(error?.description.contains(path) == true)
    }

    @Test("a hostile path listed in the manifest too")
    func hostilePathInManifest() throws {
        let error = try refusal { items in
            let payload = Data("owned".utf8)
            items.append(("../../etc/x", payload))
            items = try replacingManifest(items) { $0.files.append(.init(path: "../../etc/x", size: Int64(payload.count), sha256: sha256(payload))) }
        }
        #expect(error == .unexpectedEntry("../../etc/x"))
    }

    @Test("a truncated archive")
    func truncated() throws {
        let server = try ServerData()
        defer { server.close() }
        try server.addItems(4, photos: 2)
        let (archive, _) = try server.backup()
        let data = try Data(contentsOf: archive)
        let truncated = server.folder.appending("truncated.zip")
        try data.prefix(data.count * 2 / 3).write(to: truncated)
        let error = try refusal(of: truncated, in: server.folder)
        #expect(error == .unreadableArchive(truncated.path))
    }

    @Test("one flipped byte in the archive file itself (inside the compressed database)")
    func flippedArchiveByte() throws {
        let server = try ServerData()
        defer { server.close() }
        try server.addItems(4, photos: 2)
        let (archive, _) = try server.backup()
        var data = try Data(contentsOf: archive)
        // The database is the first entry: its compressed bytes start after a ~42-byte local header.
        data[400] ^= 0x20
        let damaged = server.folder.appending("damaged.zip")
        try data.write(to: damaged)
        let error = try refusal(of: damaged, in: server.folder)
        #expect([.damagedEntry("zaiko.sqlite"), .sizeMismatch("zaiko.sqlite"), .checksumMismatch("zaiko.sqlite")].contains(error))
    }

    @Test("a ZIP that is not a Zaiko backup")
    func noManifest() throws {
        let error = try refusal { items in items.removeAll { $0.path == "manifest.json" } }
        #expect(error == .unreadableManifest)
    }

    @Test("an entry larger than its manifest says stops while extracting")
    func oversizedEntry() throws {
        let error = try refusal { items in
            let index = try #require(items.firstIndex { $0.path.hasPrefix("photos/") })
            items[index].data.append(Data(count: 1 << 20))
        }
        guard case .sizeMismatch = error else {
            Issue.record("expected sizeMismatch, got \(String(describing: error))")
            return
        }
    }
}
