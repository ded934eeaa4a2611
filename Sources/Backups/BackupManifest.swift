import Foundation
import Inventory

/// `manifest.json`, the archive's table of contents: what made it, when, what the database held,
/// and the sha256 of every other file in the archive.
public struct BackupManifest: Codable, Equatable, Sendable {
    /// The layout of the archive; a restore refuses a format it does not know.
    public static let currentFormatVersion = 1

    public var formatVersion: Int
    /// The identifier of the last migration applied to the database ("v9 household search").
    public var schemaVersion: String
    /// Every migration applied to the database, in order.
    public var migrations: [String]
    public var zaikoVersion: String
    public var createdAt: Timestamp
    /// Rows per table of the database snapshot.
    public var rowCounts: [String: Int]
    /// Every file of the archive except the manifest itself, sorted by path.
    public var files: [File]

    public struct File: Codable, Equatable, Sendable {
        /// The entry's path inside the archive ("zaiko.sqlite", "photos/<key>-512.jpg").
        public var path: String
        public var size: Int64
        public var sha256: String
    }

    /// How many photo files the archive holds.
    public var photoFileCount: Int { files.filter { $0.path.hasPrefix(ArchiveLayout.photosFolder) }.count }

    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    static func decode(_ data: Data) throws -> BackupManifest {
        do {
            return try JSONDecoder().decode(BackupManifest.self, from: data)
        } catch {
            throw BackupError.unreadableManifest
        }
    }
}
