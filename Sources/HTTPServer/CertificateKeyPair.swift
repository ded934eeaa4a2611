import CGnuTLS
import Foundation

/// A certificate chain and its private key, parsed by GnuTLS into the form a handshake uses.
/// Never freed: a handshake in progress may still hold a pair that a reload replaced, and a
/// reload happens when the files change (monthly for Zaiko's own certificate), so the few
/// kilobytes of each retired pair are kept for the life of the process.
final class CertificateKeyPair: @unchecked Sendable {
    // Immutable after init; GnuTLS only reads them.
    let chain: UnsafeMutablePointer<gnutls_pcert_st>
    let chainLength: UInt32
    let key: gnutls_privkey_t

    static let maxChainLength = 16

    /// Reads both PEM files; throws a `ServerError.certificate` that reads as one sentence.
    init(certificateFile: URL, keyFile: URL) throws {
        guard let certificatePEM = try? Data(contentsOf: certificateFile) else {
            throw ServerError.certificate("Cannot read the TLS certificate file \(certificateFile.path)")
        }
        guard let keyPEM = try? Data(contentsOf: keyFile) else {
            throw ServerError.certificate("Cannot read the TLS key file \(keyFile.path)")
        }
        let chain = UnsafeMutablePointer<gnutls_pcert_st>.allocate(capacity: Self.maxChainLength)
        var length = UInt32(Self.maxChainLength)
        let imported = Self.withDatum(certificatePEM) { datum in
            // SORT: a chain listed CA first still works, leaf first is what the handshake sends.
            gnutls_pcert_list_import_x509_raw(chain, &length, datum, GNUTLS_X509_FMT_PEM, GNUTLS_X509_CRT_LIST_SORT.rawValue)
        }
        guard imported >= 0, length > 0 else {
            chain.deallocate()
            throw ServerError.certificate(
                "\(certificateFile.path) holds no PEM certificate GnuTLS can read (\(Self.message(imported)))")
        }
        var key: gnutls_privkey_t?
        gnutls_privkey_init(&key)
        let keyImported = Self.withDatum(keyPEM) { datum in gnutls_privkey_import_x509_raw(key, datum, GNUTLS_X509_FMT_PEM, nil, 0) }
        guard let key, keyImported >= 0 else {
            Self.free(chain, length)
            gnutls_privkey_deinit(key)
            throw ServerError.certificate("\(keyFile.path) holds no unencrypted PEM private key GnuTLS can read (\(Self.message(keyImported)))")
        }
        guard Self.keyID(of: chain.pointee.pubkey) == Self.keyID(of: key) else {
            Self.free(chain, length)
            gnutls_privkey_deinit(key)
            throw ServerError.certificate("The key in \(keyFile.path) does not belong to the first certificate in \(certificateFile.path)")
        }
        self.chain = chain
        self.chainLength = length
        self.key = key
    }

    private static func withDatum<T>(_ data: Data, _ body: (UnsafePointer<gnutls_datum_t>) -> T) -> T {
        var bytes = [UInt8](data)
        return bytes.withUnsafeMutableBufferPointer { buffer in
            var datum = gnutls_datum_t(data: buffer.baseAddress, size: UInt32(buffer.count))
            return body(&datum)
        }
    }

    private static func keyID(of publicKey: gnutls_pubkey_t?) -> [UInt8]? {
        var id = [UInt8](repeating: 0, count: 64)
        var size = id.count
        guard gnutls_pubkey_get_key_id(publicKey, 0, &id, &size) >= 0 else { return nil }
        return Array(id.prefix(size))
    }

    private static func keyID(of key: gnutls_privkey_t) -> [UInt8]? {
        var publicKey: gnutls_pubkey_t?
        gnutls_pubkey_init(&publicKey)
        defer { gnutls_pubkey_deinit(publicKey) }
        guard gnutls_pubkey_import_privkey(publicKey, key, 0, 0) >= 0 else { return nil }
        return keyID(of: publicKey)
    }

    private static func free(_ chain: UnsafeMutablePointer<gnutls_pcert_st>, _ length: UInt32) {
        for index in 0..<Int(length) { gnutls_pcert_deinit(chain + index) }
        chain.deallocate()
    }

    static func message(_ code: Int32) -> String { String(cString: gnutls_strerror(code)) }
}
