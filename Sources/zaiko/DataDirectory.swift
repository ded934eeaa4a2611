import Foundation

/// The folder that holds the database, photos and uploads in progress.
struct DataDirectory {
    let url: URL

    struct Problem: Error, CustomStringConvertible {
        let description: String
    }

    /// The household's data is for the account that runs Zaiko only: every file and folder this
    /// process creates from here on (the database and its WAL, photos, uploads) is made without
    /// group or other permissions. SQLite, libmicrohttpd and the photo store all follow the umask.
    static func keepNewFilesPrivate() {
        umask(0o077)
    }

    init(path: String) throws {
        url = URL(fileURLWithPath: path).standardizedFileURL
        let manager = FileManager.default
        do {
            // 0700 even if the umask was not set (a folder that already exists is left as it is).
            try manager.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try manager.createDirectory(at: uploadsURL, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            // Prove we can write here before the database tries to.
            let probe = url.appendingPathComponent(".write-test")
            try Data("ok".utf8).write(to: probe)
            try manager.removeItem(at: probe)
        } catch {
            throw Problem(description: "Cannot write to the data folder \(url.path); make it writable or choose another with --data.")
        }
        // Uploads left by a previous run that stopped mid-request.
        for leftover in (try? manager.contentsOfDirectory(at: uploadsURL, includingPropertiesForKeys: nil)) ?? [] {
            try? manager.removeItem(at: leftover)
        }
    }

    var databaseURL: URL { url.appendingPathComponent("zaiko.sqlite") }
    var uploadsURL: URL { url.appendingPathComponent("uploads") }
    var photosURL: URL { url.appendingPathComponent("photos") }
}
