import CGnuTLS
import Foundation

/// One X.509 certificate through GnuTLS: read from PEM, or built field by field and signed.
final class Certificate {
    let certificate: gnutls_x509_crt_t

    init() throws {
        var certificate: gnutls_x509_crt_t?
        try checked(gnutls_x509_crt_init(&certificate), "prepare a certificate")
        self.certificate = certificate!
    }

    deinit { gnutls_x509_crt_deinit(certificate) }

    /// The first certificate in a PEM file (in server.crt, the leaf before the CA).
    static func read(pem: Data) throws -> Certificate {
        let read = try Certificate()
        _ = try withDatum(pem) { try checked(gnutls_x509_crt_import(read.certificate, $0, GNUTLS_X509_FMT_PEM), "read a certificate") }
        return read
    }

    func pem() throws -> Data {
        try exported("write a certificate") { gnutls_x509_crt_export(certificate, GNUTLS_X509_FMT_PEM, $0, $1) }
    }

    func der() throws -> Data {
        try exported("write a certificate") { gnutls_x509_crt_export(certificate, GNUTLS_X509_FMT_DER, $0, $1) }
    }

    var expires: Date { Date(timeIntervalSince1970: TimeInterval(gnutls_x509_crt_get_expiration_time(certificate))) }

    /// SHA-256 of the public key it holds (see `PrivateKey.keyID`).
    func keyID() throws -> Data {
        try filled("read a certificate's key identifier") { gnutls_x509_crt_get_key_id(certificate, GNUTLS_KEYID_USE_SHA256.rawValue, $0, $1) }
    }

    func sha256Fingerprint() throws -> Data {
        try filled("hash a certificate") { gnutls_x509_crt_get_fingerprint(certificate, GNUTLS_DIG_SHA256, $0, $1) }
    }

    /// Whether `issuer` signed this certificate. Dates are not checked here: the caller's clock decides.
    func isSigned(by issuer: Certificate) -> Bool {
        var status: UInt32 = 0
        var issuers: [gnutls_x509_crt_t?] = [issuer.certificate]
        let flags = GNUTLS_VERIFY_DISABLE_TIME_CHECKS.rawValue | GNUTLS_VERIFY_DISABLE_TRUSTED_TIME_CHECKS.rawValue
        return gnutls_x509_crt_verify(certificate, &issuers, 1, flags, &status) == 0 && status == 0
    }

    /// The DNS names and IP addresses in subjectAltName.
    func subjectNames() throws -> SubjectNames {
        var names: [String] = []
        var addresses: [String] = []
        for sequence in UInt32(0)... {
            var buffer = [UInt8](repeating: 0, count: 512)
            var size = buffer.count
            var type: UInt32 = 0
            let result = gnutls_x509_crt_get_subject_alt_name2(certificate, sequence, &buffer, &size, &type, nil)
            if result == GNUTLS_E_REQUESTED_DATA_NOT_AVAILABLE { break }
            try checked(result, "read a certificate's names")
            let value = Data(buffer.prefix(size))
            switch gnutls_x509_subject_alt_name_t(type) {
            case GNUTLS_SAN_DNSNAME: names.append(String(decoding: value, as: UTF8.self))
            case GNUTLS_SAN_IPADDRESS: if let text = SubjectNames.text(ofAddress: value) { addresses.append(text) }
            default: continue
            }
        }
        return try SubjectNames(names: names, addresses: addresses)
    }
}

/// The fields Zaiko sets on the certificates it makes.
extension Certificate {
    static let day: TimeInterval = 86_400

    func setCommon(key: PrivateKey, commonName: String, from: Date, until: Date) throws {
        try checked(gnutls_x509_crt_set_version(certificate, 3), "set a certificate's version")
        try checked(gnutls_x509_crt_set_key(certificate, key.key), "put the key in a certificate")
        var serial = Self.randomSerial()
        try checked(gnutls_x509_crt_set_serial(certificate, &serial, serial.count), "set a certificate's serial number")
        try checked(gnutls_x509_crt_set_activation_time(certificate, time_t(from.timeIntervalSince1970)), "set a certificate's start date")
        try checked(gnutls_x509_crt_set_expiration_time(certificate, time_t(until.timeIntervalSince1970)), "set a certificate's end date")
        let name = Array(commonName.utf8)
        // 2.5.4.3 is the X.520 commonName.
        try checked(gnutls_x509_crt_set_dn_by_oid(certificate, "2.5.4.3", 0, name, UInt32(name.count)), "set a certificate's name")
        var keyID = [UInt8](try keyID())
        try checked(gnutls_x509_crt_set_subject_key_id(certificate, &keyID, keyID.count), "set a certificate's key identifier")
    }

    /// 20 random bytes with the top bit clear: positive, and at most 20 octets as RFC 5280 asks.
    static func randomSerial() -> [UInt8] {
        // SystemRandomNumberGenerator reads getrandom(2).
        var generator = SystemRandomNumberGenerator()
        var serial = (0..<20).map { _ in UInt8.random(in: 0...255, using: &generator) }
        serial[0] = (serial[0] & 0x7F) | 0x01
        return serial
    }

    func setAuthorityExtensions() throws {
        // GnuTLS marks basicConstraints and keyUsage critical.
        try checked(gnutls_x509_crt_set_basic_constraints(certificate, 1, 0), "mark a certificate as an authority")
        try checked(gnutls_x509_crt_set_key_usage(certificate, UInt32(GNUTLS_KEY_KEY_CERT_SIGN | GNUTLS_KEY_CRL_SIGN)), "set an authority's key usage")
    }

    func setServerExtensions(names: SubjectNames, issuer: Certificate) throws {
        try checked(gnutls_x509_crt_set_basic_constraints(certificate, 0, -1), "mark a certificate as a server's")
        try checked(gnutls_x509_crt_set_key_usage(certificate, UInt32(GNUTLS_KEY_DIGITAL_SIGNATURE)), "set a server certificate's key usage")
        try checked(gnutls_x509_crt_set_key_purpose_oid(certificate, "1.3.6.1.5.5.7.3.1", 0), "mark a certificate for TLS servers")
        var authorityKeyID = [UInt8](try issuer.keyID())
        try checked(gnutls_x509_crt_set_authority_key_id(certificate, &authorityKeyID, authorityKeyID.count), "name the signing authority")
        for name in names.names {
            let bytes = Array(name.utf8)
            try checked(
                gnutls_x509_crt_set_subject_alt_name(certificate, GNUTLS_SAN_DNSNAME, bytes, UInt32(bytes.count), UInt32(GNUTLS_FSAN_APPEND)),
                "add the name \(name)")
        }
        for address in names.addresses {
            let bytes = [UInt8](SubjectNames.bytes(ofAddress: address) ?? Data())
            try checked(
                gnutls_x509_crt_set_subject_alt_name(certificate, GNUTLS_SAN_IPADDRESS, bytes, UInt32(bytes.count), UInt32(GNUTLS_FSAN_APPEND)),
                "add the address \(address)")
        }
    }

    func sign(by issuer: Certificate, key: PrivateKey) throws {
        try checked(gnutls_x509_crt_sign2(certificate, issuer.certificate, key.key, GNUTLS_DIG_SHA256, 0), "sign a certificate")
    }
}
