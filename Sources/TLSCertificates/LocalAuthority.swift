import Foundation

/// Zaiko's own certificate authority and the server certificate it signs, kept in one folder
/// (`<data>/tls/`, 0700): `ca.crt`, `ca.key`, `server.crt` (the leaf, then the CA), `server.key`.
/// Keys are 0600 and never leave the folder; every file is replaced atomically.
public struct LocalAuthority: Sendable {
    public let directory: URL
    /// Goes into the authority's name, "Zaiko at <hostname>", which devices show in their lists.
    public let hostname: String

    /// A new server certificate is issued this long before the current one expires.
    public static let renewBefore: TimeInterval = 30 * Certificate.day
    /// Below the 398 days phones accept.
    public static let serverLifetime: TimeInterval = 396 * Certificate.day
    public static let authorityLifetime: TimeInterval = 3650 * Certificate.day

    public init(directory: URL, hostname: String = LocalAuthority.machineHostname()) {
        self.directory = directory
        self.hostname = hostname
    }

    public var caCertificateFile: URL { directory.appendingPathComponent("ca.crt") }
    public var caKeyFile: URL { directory.appendingPathComponent("ca.key") }
    public var serverCertificateFile: URL { directory.appendingPathComponent("server.crt") }
    public var serverKeyFile: URL { directory.appendingPathComponent("server.key") }

    public static func machineHostname() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        let name = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return name.isEmpty ? "localhost" : name
    }

    /// Makes the CA if missing; (re)issues the server certificate if missing, within 30 days of
    /// expiry, or when `names`/`addresses` differ from the current one's. Returns what it did.
    /// A CA certificate without its key (or the reverse) is an error, not a reason for a new CA:
    /// a new one would silently break every device that installed the old one.
    @discardableResult
    public func ensure(names: [String], addresses: [String], now: Date) throws -> CertificateStatus {
        let asked = try SubjectNames(names: names, addresses: addresses)
        try prepareFolder()
        return try FolderLock.holding(directory) {
            var madeAuthority = false
            let authority: (certificate: Certificate, key: PrivateKey)
            if let existing = try readAuthority() {
                authority = existing
            } else {
                authority = try makeAuthority(machineNames: names, now: now)
                madeAuthority = true
            }
            // Names outside the authority's constraints (an address outside the home network) are left out.
            let wanted = try authority.certificate.permitted(asked)
            let current = readServer()
            let reason = try renewalReason(current, authority: authority.certificate, wanted: wanted, now: now)
            guard let reason else {
                return try status(madeAuthority: madeAuthority, issued: nil, server: current.certificate!, authority: authority.certificate)
            }
            // Renewal keeps a readable key, so only server.crt changes: one rename, and a reader
            // never pairs a new certificate with an old key.
            let server = try issueServer(names: wanted, commonName: names.first, authority: authority, key: current.key, now: now)
            return try status(madeAuthority: madeAuthority, issued: reason, server: server, authority: authority.certificate)
        }
    }

    /// A new CA and server certificate; the old files kept beside them with a date in their names
    /// (`ca-replaced-20261122-213000.crt`, …) until the operator deletes them.
    @discardableResult
    public func rotate(names: [String], addresses: [String], now: Date) throws -> CertificateStatus {
        let asked = try SubjectNames(names: names, addresses: addresses)
        try prepareFolder()
        return try FolderLock.holding(directory) {
            try keepOldFiles(now: now)
            let authority = try makeAuthority(machineNames: names, now: now)
            let server = try issueServer(names: try authority.certificate.permitted(asked), commonName: names.first, authority: authority, key: nil, now: now)
            return try status(madeAuthority: true, issued: .rotated, server: server, authority: authority.certificate)
        }
    }

    /// SHA-256 of the CA certificate's DER, as colon-separated upper-case hex.
    public func caFingerprint() throws -> String {
        Self.colonHex(try readCertificate(caCertificateFile).sha256Fingerprint())
    }

    /// The CA certificate in DER (the `.crt` some systems want instead of PEM).
    public func caCertificateDER() throws -> Data {
        try readCertificate(caCertificateFile).der()
    }

    /// Base64 of SHA-256 of the CA's SubjectPublicKeyInfo: what Chromium's
    /// `--ignore-certificate-errors-spki-list` and HPKP-style pins compare.
    public func caPublicKeyHash() throws -> String {
        try readCertificate(caCertificateFile).keyID().base64EncodedString()
    }

    static func colonHex(_ bytes: Data) -> String {
        bytes.map { String(format: "%02X", $0) }.joined(separator: ":")
    }
}

extension LocalAuthority {
    func prepareFolder() throws {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw CertificateError("Cannot create the certificate folder \(directory.path); make its parent writable by the account that runs Zaiko.")
        }
        // The folder holds private keys: 0700 even if it was made by hand or under another umask.
        guard chmod(directory.path, 0o700) == 0 else {
            throw CertificateError("Cannot make the certificate folder \(directory.path) private (\(String(cString: strerror(errno)))).")
        }
    }

    func readAuthority() throws -> (certificate: Certificate, key: PrivateKey)? {
        let manager = FileManager.default
        let hasCertificate = manager.fileExists(atPath: caCertificateFile.path)
        let hasKey = manager.fileExists(atPath: caKeyFile.path)
        if !hasCertificate && !hasKey { return nil }
        guard hasCertificate && hasKey else {
            let missing = hasCertificate ? caKeyFile : caCertificateFile
            throw CertificateError(
                "\(missing.path) is missing beside its pair; put back the copy you kept (backups do not hold it), or run `zaiko tls rotate` to make a new authority every device must install again."
            )
        }
        let certificate = try readCertificate(caCertificateFile)
        let key = try readKey(caKeyFile)
        guard try certificate.keyID() == key.keyID() else {
            throw CertificateError("\(caKeyFile.path) is not the key of \(caCertificateFile.path); restore the pair from a backup or run `zaiko tls rotate`.")
        }
        return (certificate, key)
    }

    func readCertificate(_ file: URL) throws -> Certificate {
        guard let pem = try? Data(contentsOf: file) else { throw CertificateError("Cannot read \(file.path).") }
        do { return try Certificate.read(pem: pem) } catch let error as CertificateError {
            throw CertificateError("\(file.path) is not a certificate: \(error.description)")
        }
    }

    func readKey(_ file: URL) throws -> PrivateKey {
        guard let pem = try? Data(contentsOf: file) else { throw CertificateError("Cannot read \(file.path).") }
        do { return try PrivateKey.read(pem: pem) } catch let error as CertificateError {
            throw CertificateError("\(file.path) is not a private key: \(error.description)")
        }
    }

    /// The current server certificate and key, each nil when missing or unreadable.
    func readServer() -> (certificate: Certificate?, key: PrivateKey?) {
        let certificate = (try? Data(contentsOf: serverCertificateFile)).flatMap { try? Certificate.read(pem: $0) }
        let key = (try? Data(contentsOf: serverKeyFile)).flatMap { try? PrivateKey.read(pem: $0) }
        return (certificate, key)
    }

    func renewalReason(
        _ current: (certificate: Certificate?, key: PrivateKey?), authority: Certificate, wanted: SubjectNames, now: Date
    ) throws -> CertificateStatus.Reason? {
        let manager = FileManager.default
        if !manager.fileExists(atPath: serverCertificateFile.path) || !manager.fileExists(atPath: serverKeyFile.path) { return .missing }
        guard let certificate = current.certificate, let key = current.key,
            let names = try? certificate.subjectNames(), (try? certificate.keyID() == key.keyID()) == true
        else { return .unreadable }
        if !certificate.isSigned(by: authority) { return .otherAuthority }
        if now >= certificate.expires.addingTimeInterval(-Self.renewBefore) { return .expiring }
        if names != wanted { return .namesChanged }
        return nil
    }

    /// A new authority that may sign only for the home network: `machineNames` (and the names
    /// below them), `.local`, `localhost`, and private addresses.
    func makeAuthority(machineNames: [String], now: Date) throws -> (certificate: Certificate, key: PrivateKey) {
        let key = try PrivateKey.generate()
        let certificate = try Certificate()
        // An hour back: a device whose clock runs a little slow still accepts it.
        let from = now.addingTimeInterval(-3600)
        try certificate.setCommon(key: key, commonName: "Zaiko at \(hostname)", from: from, until: from.addingTimeInterval(Self.authorityLifetime))
        try certificate.setAuthorityExtensions()
        try certificate.setNameConstraints(try NameConstraints.homeNetwork(machineNames: machineNames + [hostname]))
        try certificate.sign(by: certificate, key: key)
        // The key first: a CA certificate without its key would stop the next start.
        try AtomicFile.write(try key.pem(), to: caKeyFile, mode: 0o600)
        try AtomicFile.write(try certificate.pem(), to: caCertificateFile, mode: 0o600)
        return (certificate, key)
    }

    /// Signs a server certificate for `names`, with `key` when given (renewal) or a new key.
    /// `commonName` is for people reading the certificate (the hostname); browsers look only at the names.
    func issueServer(
        names: SubjectNames, commonName: String?, authority: (certificate: Certificate, key: PrivateKey), key existing: PrivateKey?, now: Date
    ) throws -> Certificate {
        guard !names.names.isEmpty || !names.addresses.isEmpty else {
            throw CertificateError("A server certificate needs at least one name or address.")
        }
        let key = try existing ?? PrivateKey.generate()
        let certificate = try Certificate()
        let from = now.addingTimeInterval(-3600)
        let until = min(from.addingTimeInterval(Self.serverLifetime), authority.certificate.expires)
        try certificate.setCommon(key: key, commonName: commonName ?? names.names.first ?? names.addresses[0], from: from, until: until)
        try certificate.setServerExtensions(names: names, issuer: authority.certificate)
        try certificate.sign(by: authority.certificate, key: authority.key)
        if existing == nil { try AtomicFile.write(try key.pem(), to: serverKeyFile, mode: 0o600) }
        let pem = try certificate.pem()
        try AtomicFile.write(pem + authority.certificate.pem(), to: serverCertificateFile, mode: 0o600)
        // Read back as a reader will: GnuTLS reports a certificate's names fully only once imported.
        return try Certificate.read(pem: pem)
    }

    /// Copies (not moves) the current files aside, so the server keeps serving until the new ones land.
    func keepOldFiles(now: Date) throws {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        let stamp = formatter.string(from: now)
        for file in [caCertificateFile, caKeyFile, serverCertificateFile, serverKeyFile] {
            guard let data = try? Data(contentsOf: file) else { continue }
            let name = file.deletingPathExtension().lastPathComponent
            let kept = directory.appendingPathComponent("\(name)-replaced-\(stamp).\(file.pathExtension)")
            try AtomicFile.write(data, to: kept, mode: 0o600)
        }
    }

    func status(madeAuthority: Bool, issued: CertificateStatus.Reason?, server: Certificate, authority: Certificate) throws -> CertificateStatus {
        CertificateStatus(
            madeAuthority: madeAuthority, issued: issued, serverExpires: server.expires, subjectNames: try server.subjectNames(),
            caFingerprint: Self.colonHex(try authority.sha256Fingerprint()))
    }
}
