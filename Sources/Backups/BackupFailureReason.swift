import Foundation
import GRDB

/// Why an automatic backup failed, as owners are told it. The error itself goes to the log only.
public enum BackupFailureReason: String, Sendable, Equatable, CaseIterable {
    case diskFull = "disk_full"
    case folderMissing = "folder_missing"
    case notWritable = "not_writable"
    case other

    public init(_ error: any Error) {
        if let reason = error as? BackupFailureReason {
            self = reason
        } else if let reason = (error as? BackupError)?.failureReason {
            self = reason
        } else if let code = Self.errno(of: error) {
            switch code {
            case ENOSPC, EDQUOT, EFBIG: self = .diskFull
            case ENOENT, ENOTDIR: self = .folderMissing
            case EACCES, EPERM, EROFS: self = .notWritable
            default: self = .other
            }
        } else if let error = error as? DatabaseError {
            switch error.resultCode {
            case .SQLITE_FULL: self = .diskFull
            case .SQLITE_READONLY, .SQLITE_PERM: self = .notWritable
            default: self = .other
            }
        } else {
            self = .other
        }
    }

    /// The POSIX error number behind `error`, when there is one (Foundation wraps it).
    static func errno(of error: any Error) -> Int32? {
        if let error = error as? POSIXError { return error.code.rawValue }
        let error = error as NSError
        if error.domain == NSPOSIXErrorDomain { return Int32(error.code) }
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? any Error { return Self.errno(of: underlying) }
        if error.domain == NSCocoaErrorDomain {
            switch CocoaError.Code(rawValue: error.code) {
            case .fileWriteOutOfSpace: return ENOSPC
            case .fileNoSuchFile, .fileReadNoSuchFile: return ENOENT
            case .fileWriteNoPermission, .fileReadNoPermission: return EACCES
            case .fileWriteVolumeReadOnly: return EROFS
            default: return nil
            }
        }
        return nil
    }
}

extension BackupFailureReason: Error {}
