import Foundation

/// The folder that holds the database, photos and uploads in progress.
struct DataDirectory {
    let url: URL

    struct Problem: Error, CustomStringConvertible {
        let description: String
    }

    init(path: String) throws {
        url = URL(fileURLWithPath: path).standardizedFileURL
        let manager = FileManager.default
        do {
            try manager.createDirectory(at: uploadsURL, withIntermediateDirectories: true)
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
