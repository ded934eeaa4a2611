import Foundation
import Inventory

/// A configuration profile (`.mobileconfig`) that installs the CA on an iPhone or iPad: an XML
/// property list with one `com.apple.security.root` payload holding the certificate in DER.
enum AppleProfile {
    static let contentType = "application/x-apple-aspen-config"

    static func data(for certificate: CACertificate, description: String) throws -> Data {
        // Identifiers follow the certificate, so a device sees the same CA's profile as the same profile.
        let digest = Crypto.sha256(certificate.der)
        let name = certificate.commonName.isEmpty ? "Zaiko" : certificate.commonName
        let payload: [String: Any] = [
            "PayloadType": "com.apple.security.root",
            "PayloadVersion": 1,
            "PayloadIdentifier": "app.zaiko.ca.\(Crypto.hex(Array(digest.prefix(8)))).certificate",
            "PayloadUUID": uuid(digest, salt: 1),
            "PayloadDisplayName": name,
            "PayloadDescription": description,
            "PayloadCertificateFileName": "zaiko-ca.cer",
            "PayloadContent": Data(certificate.der),
        ]
        let profile: [String: Any] = [
            "PayloadType": "Configuration",
            "PayloadVersion": 1,
            "PayloadIdentifier": "app.zaiko.ca.\(Crypto.hex(Array(digest.prefix(8))))",
            "PayloadUUID": uuid(digest, salt: 0),
            "PayloadDisplayName": name,
            "PayloadDescription": description,
            "PayloadRemovalDisallowed": false,
            "PayloadContent": [payload],
        ]
        return try PropertyListSerialization.data(fromPropertyList: profile, format: .xml, options: 0)
    }

    /// A version-4-shaped UUID made from the certificate's digest (stable for one certificate).
    private static func uuid(_ digest: [UInt8], salt: UInt8) -> String {
        var bytes = Array(Crypto.sha256(digest + [salt]).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let tuple = (
            bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
            bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
        )
        return UUID(uuid: tuple).uuidString
    }
}
