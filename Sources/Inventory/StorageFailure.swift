import Foundation
import GRDB

/// A write the server's own storage refused: nothing the member typed was wrong, the disk is
/// full, read-only or failing. The write's transaction was rolled back (or its files removed).
public enum StorageFailure: Error, Equatable, Sendable {
    case full
    case readOnly
    case failing
    /// The database file was deleted or replaced while the server had it open: a write would be
    /// acknowledged and lost with it (see `OpenedFileGuard`).
    case databaseFileChanged

    /// The storage failure behind `error`, nil for any other error.
    public init?(_ error: any Error) {
        if let error = error as? StorageFailure {
            self = error
        } else if let error = error as? DatabaseError {
            switch error.resultCode {
            case .SQLITE_FULL: self = .full
            case .SQLITE_READONLY: self = .readOnly
            case .SQLITE_IOERR, .SQLITE_CANTOPEN: self = .failing
            default: return nil
            }
        } else if case PhotoStoreError.write(let code) = error {
            self.init(errno: code)
        } else {
            return nil
        }
    }

    /// True when the file system holding `path` has less room left than one more photo or WAL
    /// checkpoint may need (what an unprivileged writer may use).
    public static func diskIsFull(at path: String) -> Bool {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return false }
        return UInt64(info.f_bavail) * UInt64(info.f_frsize) < lowestFreeBytes
    }

    static let lowestFreeBytes: UInt64 = 1024 * 1024

    /// A file write's `errno`.
    public init(errno code: Int32) {
        switch code {
        case ENOSPC, EDQUOT, EFBIG: self = .full
        case EROFS, EACCES, EPERM: self = .readOnly
        default: self = .failing
        }
    }
}
