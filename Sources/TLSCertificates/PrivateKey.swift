import CGnuTLS
import Foundation

/// An ECDSA P-256 private key: small, fast to sign a handshake with, accepted by every current
/// browser and by Python's `ssl`.
final class PrivateKey {
    let key: gnutls_x509_privkey_t

    private init() throws {
        var key: gnutls_x509_privkey_t?
        try checked(gnutls_x509_privkey_init(&key), "prepare a private key")
        self.key = key!
    }

    deinit { gnutls_x509_privkey_deinit(key) }

    static func generate() throws -> PrivateKey {
        let made = try PrivateKey()
        // GNUTLS_CURVE_TO_BITS(GNUTLS_ECC_CURVE_SECP256R1): a C macro Swift cannot import.
        let curve = (UInt32(1) << 31) | GNUTLS_ECC_CURVE_SECP256R1.rawValue
        try checked(gnutls_x509_privkey_generate(made.key, GNUTLS_PK_ECDSA, curve, 0), "make an ECDSA P-256 key")
        return made
    }

    /// Reads PEM in any form GnuTLS knows (PKCS#8 as we write it, or SEC1/PKCS#1).
    static func read(pem: Data) throws -> PrivateKey {
        let read = try PrivateKey()
        _ = try withDatum(pem) { try checked(gnutls_x509_privkey_import2(read.key, $0, GNUTLS_X509_FMT_PEM, nil, 0), "read a private key") }
        return read
    }

    /// Unencrypted PKCS#8 PEM ("BEGIN PRIVATE KEY"), which GnuTLS, OpenSSL and Python all read.
    func pem() throws -> Data {
        try exported("write a private key") { gnutls_x509_privkey_export_pkcs8(key, GNUTLS_X509_FMT_PEM, nil, GNUTLS_PKCS_PLAIN.rawValue, $0, $1) }
    }

    /// SHA-256 of the public key: equal to a certificate's `keyID` when the certificate holds this key.
    func keyID() throws -> Data {
        try filled("read a key's identifier") { gnutls_x509_privkey_get_key_id(key, GNUTLS_KEYID_USE_SHA256.rawValue, $0, $1) }
    }
}
