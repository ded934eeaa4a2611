import CGnuTLS
import Foundation
import Inventory

/// The local certificate authority's certificate as the /tls page hands it out: the PEM file's
/// text, the same certificate in DER, its SHA-256 fingerprint, its name and end of validity.
/// Parsed by GnuTLS, so a file that is not a certificate is refused rather than served.
struct CACertificate: Sendable, Equatable {
    let pem: [UInt8]
    let der: [UInt8]
    /// The subject's common name ("Zaiko at box"), the name devices list it under.
    let commonName: String
    let expires: Date

    /// Upper-case hex pairs joined by colons, as `openssl x509 -fingerprint -sha256` prints them.
    var fingerprint: String { Crypto.sha256(der).map { String(format: "%02X", $0) }.joined(separator: ":") }

    /// Nil when the bytes hold no X.509 certificate.
    init?(pem: [UInt8]) {
        var certificate: gnutls_x509_crt_t?
        guard gnutls_x509_crt_init(&certificate) == GNUTLS_E_SUCCESS, let certificate else { return nil }
        defer { gnutls_x509_crt_deinit(certificate) }
        let imported = pem.withUnsafeBufferPointer { buffer in
            var datum = gnutls_datum_t(data: UnsafeMutablePointer(mutating: buffer.baseAddress), size: UInt32(buffer.count))
            return gnutls_x509_crt_import(certificate, &datum, GNUTLS_X509_FMT_PEM)
        }
        guard imported == GNUTLS_E_SUCCESS, let der = Self.der(of: certificate) else { return nil }
        self.pem = pem
        self.der = der
        commonName = Self.commonName(of: certificate) ?? ""
        expires = Date(timeIntervalSince1970: TimeInterval(gnutls_x509_crt_get_expiration_time(certificate)))
    }

    private static func der(of certificate: gnutls_x509_crt_t) -> [UInt8]? {
        var size = 0
        _ = gnutls_x509_crt_export(certificate, GNUTLS_X509_FMT_DER, nil, &size)
        guard size > 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: size)
        guard gnutls_x509_crt_export(certificate, GNUTLS_X509_FMT_DER, &bytes, &size) == GNUTLS_E_SUCCESS else { return nil }
        return Array(bytes.prefix(size))
    }

    private static func commonName(of certificate: gnutls_x509_crt_t) -> String? {
        var size = 0
        let commonNameOID = "2.5.4.3"
        _ = gnutls_x509_crt_get_dn_by_oid(certificate, commonNameOID, 0, 0, nil, &size)
        guard size > 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: size)
        guard gnutls_x509_crt_get_dn_by_oid(certificate, commonNameOID, 0, 0, &bytes, &size) == GNUTLS_E_SUCCESS else { return nil }
        return String(decoding: bytes.prefix(size).prefix { $0 != 0 }, as: UTF8.self)
    }
}
