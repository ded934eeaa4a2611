import Foundation
import Inventory

/// Why a backup or a restore stopped. Each description is one plain sentence for the person who
/// runs the server; nothing was written when one of these is thrown.
public enum BackupError: Error, Equatable, CustomStringConvertible {
    case destinationExists(String)
    case unreadableFile(String)
    case photoMissing(String)
    case unreadableArchive(String)
    case unreadableManifest
    case unknownFormat(Int)
    case unexpectedEntry(String)
    case missingEntry(String)
    case checksumMismatch(String)
    case sizeMismatch(String)
    case damagedEntry(String)
    case databaseDamaged(String)
    case newerSchema(String)
    /// A schema object (type, name) that Zaiko's migrations do not make, or make differently.
    case foreignSchemaObject(String, String)
    /// A schema object (type, name) that Zaiko's migrations make and the archive lacks.
    case missingSchemaObject(String, String)
    case rowCountMismatch(String)
    case photoNotInArchive(String)
    case targetNotEmpty(String)
    /// The disk holding this folder is full (or its quota used up).
    case diskFull(String)
    /// This folder cannot be written to (read-only, or not permitted).
    case notWritable(String)
    case write(String)

    public var description: String {
        switch self {
        case .destinationExists(let path):
            return "The file \(path) already exists; choose another name or remove it first."
        case .unreadableFile(let path):
            return "Cannot read \(path)."
        case .photoMissing(let name):
            return "The photo file \(name) that an item uses is missing from the photos folder, so the backup was not written."
        case .unreadableArchive(let path):
            return "\(path) is not a readable ZIP archive (it may be truncated or damaged); nothing was restored."
        case .unreadableManifest:
            return "The archive has no readable manifest.json, so it is not a Zaiko backup; nothing was restored."
        case .unknownFormat(let version):
            return "The archive uses backup format \(version), which this version of Zaiko does not know; upgrade Zaiko first."
        case .unexpectedEntry(let path):
            return "The archive holds an entry named \"\(path)\" that a Zaiko backup never has, so it was refused and nothing was restored."
        case .missingEntry(let path):
            return "The archive lacks \(path), which its manifest lists, so nothing was restored."
        case .checksumMismatch(let path):
            return "The checksum of \(path) in the archive does not match its manifest (the archive is damaged), so nothing was restored."
        case .sizeMismatch(let path):
            return "The size of \(path) in the archive does not match its manifest (the archive is damaged), so nothing was restored."
        case .damagedEntry(let path):
            return "The entry \(path) of the archive cannot be read (the archive is damaged), so nothing was restored."
        case .databaseDamaged(let detail):
            return "The database in the archive fails SQLite's integrity check (\(detail)), so nothing was restored."
        case .newerSchema(let migration):
            return
                "The backup was made by a newer Zaiko (its database has the migration \"\(migration)\" that this version does not know); upgrade Zaiko, then restore."
        case .foreignSchemaObject(let type, let name):
            return
                "The database in the archive holds a \(type) named \"\(name)\" that Zaiko does not make (or makes differently), so it was refused and nothing was restored."
        case .missingSchemaObject(let type, let name):
            return "The database in the archive lacks the \(type) \"\(name)\" that Zaiko makes, so it was refused and nothing was restored."
        case .rowCountMismatch(let table):
            return "The table \(table) in the archive does not hold the rows its manifest counts, so nothing was restored."
        case .photoNotInArchive(let name):
            return "The archive lacks the photo file \(name) that its database uses, so nothing was restored."
        case .targetNotEmpty(let path):
            return "The data folder \(path) is not empty; restore into an empty folder, or pass --replace to move the current data aside first."
        case .diskFull(let folder):
            return "The disk holding \(folder) is full, so nothing was written; free some space and try again."
        case .notWritable(let folder):
            return "\(folder) cannot be written to (the disk is read-only or the folder not permitted), so nothing was written."
        case .write(let detail):
            return "Could not write the files: \(detail)."
        }
    }

    /// The reason owners are told, for the errors that have one of their own.
    var failureReason: BackupFailureReason? {
        switch self {
        case .diskFull: return .diskFull
        case .notWritable: return .notWritable
        default: return nil
        }
    }

    /// What stopped a write into `folder`, typed when the disk is full or refuses writes: the
    /// error's own errno when it carries one, else the state of the disk (ZIPFoundation's write
    /// errors carry no errno).
    static func writing(_ error: any Error, in folder: URL) -> BackupError {
        if let error = error as? BackupError, error.failureReason != nil { return error }
        switch BackupFailureReason(error) {
        case .diskFull: return .diskFull(folder.path)
        case .notWritable: return .notWritable(folder.path)
        case .folderMissing, .other: break
        }
        if StorageFailure.diskIsFull(at: folder.path) { return .diskFull(folder.path) }
        if FileManager.default.fileExists(atPath: folder.path), access(folder.path, W_OK) != 0 { return .notWritable(folder.path) }
        return error as? BackupError ?? .write(DurableFiles.describe(error))
    }
}
