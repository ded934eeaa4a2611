import Foundation

/// What `LocalAuthority.ensure` or `rotate` did.
public struct CertificateStatus: Equatable, Sendable {
    /// Why a new server certificate was issued.
    public enum Reason: String, Equatable, Sendable {
        case missing = "there was none"
        case unreadable = "the old one could not be read"
        case expiring = "the old one expires within 30 days"
        case namesChanged = "the machine's names or addresses changed"
        case otherAuthority = "the old one was signed by another authority"
        case rotated = "the authority was replaced"
    }

    /// Whether a new certificate authority was made (every device must install it).
    public let madeAuthority: Bool
    /// Why a server certificate was issued; nil when the current one was kept.
    public let issued: Reason?
    public let serverExpires: Date
    /// What the server certificate is for.
    public let subjectNames: SubjectNames
    /// SHA-256 of the authority's certificate, as `caFingerprint()` gives it.
    public let caFingerprint: String

    /// One line for the log.
    public var summary: String {
        let until = ISO8601DateFormatter.string(from: serverExpires, timeZone: TimeZone(identifier: "UTC")!, formatOptions: [.withFullDate])
        var parts: [String] = []
        if madeAuthority { parts.append("Made a new local certificate authority (SHA-256 \(caFingerprint)).") }
        if let issued {
            parts.append("Issued a new server certificate because \(issued.rawValue), valid until \(until).")
        } else {
            parts.append("The server certificate is current, valid until \(until).")
        }
        return parts.joined(separator: " ")
    }
}
