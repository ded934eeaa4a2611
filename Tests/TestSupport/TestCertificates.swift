import Foundation

/// A certificate authority and a server certificate for 127.0.0.1 and localhost, made by the
/// `openssl` command in a folder of their own, and the `curl`/`openssl s_client` calls that
/// talk to an HTTPS server trusting only that authority.
public struct TestCertificates: Sendable {
    public let folder: TemporaryFolder
    public var caCertificate: URL { folder.appending("ca.crt") }
    /// The leaf then the CA, as a server presents it.
    public var chain: URL { folder.appending("server.crt") }
    public var key: URL { folder.appending("server.key") }

    public init() throws {
        folder = try TemporaryFolder("zaiko-tls")
        try Self.run(
            "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
            "-keyout", folder.appending("ca.key").path, "-out", caCertificate.path, "-days", "30", "-subj", "/CN=Zaiko test CA",
            "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign")
        try issue(serial: 1001, into: chain, key: key)
    }

    /// Signs a new leaf with a new key; writes the chain (leaf + CA) and the key to the given files.
    public func issue(serial: Int, into chainFile: URL, key keyFile: URL) throws {
        let leafKey = folder.appending("leaf-\(serial).key")
        let request = folder.appending("leaf-\(serial).csr")
        let leaf = folder.appending("leaf-\(serial).crt")
        let extensions = folder.appending("leaf.ext")
        try Data(
            """
            basicConstraints=critical,CA:FALSE
            keyUsage=critical,digitalSignature
            extendedKeyUsage=serverAuth
            subjectAltName=IP:127.0.0.1,DNS:localhost

            """.utf8
        ).write(to: extensions)
        try Self.run(
            "openssl", "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", leafKey.path,
            "-out", request.path, "-subj", "/CN=localhost")
        try Self.run(
            "openssl", "x509", "-req", "-in", request.path, "-CA", caCertificate.path, "-CAkey", folder.appending("ca.key").path,
            "-set_serial", "\(serial)", "-days", "30", "-extfile", extensions.path, "-out", leaf.path)
        let chainPEM = try Data(contentsOf: leaf) + Data(contentsOf: caCertificate)
        try chainPEM.write(to: chainFile)
        try Data(contentsOf: leafKey).write(to: keyFile)
    }

    /// `curl` trusting only the test CA (any URL, http or https): the status, the Set-Cookie values
    /// and the body; throws when the TLS handshake or verification fails. `form`: a POST of these fields.
    public func get(_ url: String, headers: [String] = [], form: [(String, String)]? = nil) throws -> (status: Int, setCookies: [String], body: String) {
        var arguments = ["curl", "-sS", "--max-time", "60", "--cacert", caCertificate.path, "-D", "-", url] + headers.flatMap { ["-H", $0] }
        for (name, value) in form ?? [] { arguments += ["--data-urlencode", "\(name)=\(value)"] }
        let output = try Self.run(arguments)
        let parts = output.components(separatedBy: "\r\n\r\n")
        let head = parts[0].components(separatedBy: "\r\n")
        let status = Int(head[0].split(separator: " ")[1]) ?? 0
        let cookies = head.filter { $0.lowercased().hasPrefix("set-cookie:") }.map {
            String($0.dropFirst("set-cookie:".count)).trimmingCharacters(in: .whitespaces)
        }
        return (status, cookies, parts.dropFirst().joined(separator: "\r\n\r\n"))
    }

    /// The serial number (hex, as openssl prints it) of the certificate a new handshake sees.
    public static func servedSerial(port: UInt16) throws -> String {
        let output = try run(
            "/bin/sh", "-c",
            "openssl s_client -connect 127.0.0.1:\(port) -servername localhost </dev/null 2>/dev/null | openssl x509 -noout -serial")
        return output.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "serial=", with: "")
    }

    @discardableResult
    public static func run(_ arguments: String...) throws -> String { try run(arguments) }

    @discardableResult
    public static func run(_ arguments: [String]) throws -> String { try runToolOrThrow(arguments[0], Array(arguments.dropFirst())) }
}
