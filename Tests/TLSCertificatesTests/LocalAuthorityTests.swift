import Foundation
import TLSCertificates
import TestSupport
import Testing

@Suite("The local certificate authority")
struct LocalAuthorityTests {
    @Test func theAuthorityIsACertificateAuthorityNamedForTheMachine() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let local = authority(in: folder)
        let status = try local.ensure(names: names, addresses: addresses, now: Date())
        #expect(status.madeAuthority)

        let text = try certificateText(local.caCertificateFile)
        #expect(text.contains("Subject: CN = Zaiko at testhost"))
        #expect(text.contains("Issuer: CN = Zaiko at testhost"))
        #expect(text.contains("X509v3 Basic Constraints: critical\n                CA:TRUE, pathlen:0"))
        #expect(text.contains("X509v3 Key Usage: critical\n                Certificate Sign, CRL Sign"))
        #expect(text.contains("ASN1 OID: prime256v1"))
        #expect(text.contains("Signature Algorithm: ecdsa-with-SHA256"))
        let (from, until) = try validity(local.caCertificateFile)
        #expect(until.timeIntervalSince(from) > 3600 * day && until.timeIntervalSince(from) < 3700 * day)
        // openssl agrees the root is self-signed and valid now.
        #expect(try runTool("openssl", ["verify", "-CAfile", local.caCertificateFile.path, local.caCertificateFile.path]).status == 0)
    }

    @Test func theServerCertificateChainsToTheAuthorityAndNamesEveryNameAndAddress() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let local = authority(in: folder)
        try local.ensure(names: names, addresses: addresses, now: Date())

        let verified = try runTool("openssl", ["verify", "-CAfile", local.caCertificateFile.path, local.serverCertificateFile.path])
        #expect(verified.status == 0, "\(verified.output)")
        for host in names {
            let check = try runTool(
                "openssl", ["verify", "-CAfile", local.caCertificateFile.path, "-verify_hostname", host, local.serverCertificateFile.path])
            #expect(check.status == 0, "\(host): \(check.output)")
        }
        for address in addresses {
            let check = try runTool(
                "openssl", ["verify", "-CAfile", local.caCertificateFile.path, "-verify_ip", address, local.serverCertificateFile.path])
            #expect(check.status == 0, "\(address): \(check.output)")
        }
        let stranger = try runTool(
            "openssl", ["verify", "-CAfile", local.caCertificateFile.path, "-verify_hostname", "other.example", local.serverCertificateFile.path])
        #expect(stranger.status != 0)

        let text = try certificateText(local.serverCertificateFile)
        for name in names { #expect(text.contains("DNS:\(name)")) }
        for address in addresses { #expect(text.contains("IP Address:\(address)")) }
        #expect(text.contains("X509v3 Basic Constraints: critical\n                CA:FALSE"))
        #expect(text.contains("X509v3 Key Usage: critical\n                Digital Signature"))
        #expect(text.contains("X509v3 Extended Key Usage: \n                TLS Web Server Authentication"))
        #expect(text.contains("Issuer: CN = Zaiko at testhost"))
        #expect(text.contains("Subject: CN = testhost\n"))
        let (from, until) = try validity(local.serverCertificateFile)
        #expect(until.timeIntervalSince(from) < 398 * day)
        #expect(until.timeIntervalSince(from) > 390 * day)

        // The leaf, then the authority: what a TLS server sends.
        let chain = try String(contentsOf: local.serverCertificateFile, encoding: .utf8)
        let authorityPEM = try String(contentsOf: local.caCertificateFile, encoding: .utf8)
        #expect(chain.components(separatedBy: "-----BEGIN CERTIFICATE-----").count == 3)
        #expect(chain.hasSuffix(authorityPEM))
        #expect(try String(contentsOf: local.serverKeyFile, encoding: .utf8).hasPrefix("-----BEGIN PRIVATE KEY-----"))
    }

    @Test func pythonsSSLCompletesAHandshakeTrustingOnlyTheAuthority() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let local = authority(in: folder)
        try local.ensure(names: names, addresses: addresses, now: Date())
        for host in ["testhost.local", "localhost", "192.168.1.20", "127.0.0.1"] {
            let result = try pythonHandshake(local, host: host)
            #expect(result.status == 0, "\(host): \(result.output)")
            #expect(result.output.contains("hello"), "\(host): \(result.output)")
        }
        let refused = try pythonHandshake(local, host: "other.example")
        #expect(refused.status != 0)
        #expect(refused.output.contains("CERTIFICATE_VERIFY_FAILED"))
    }

    @Test func ipv6AddressesAreNamedInTheirShortForm() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let local = authority(in: folder)
        let status = try local.ensure(names: ["testhost"], addresses: ["[0:0::1]", "FD12:3456::0a"], now: Date())
        #expect(status.subjectNames.addresses == ["::1", "fd12:3456::a"])
        for address in ["::1", "fd12:3456::a"] {
            let check = try runTool(
                "openssl", ["verify", "-CAfile", local.caCertificateFile.path, "-verify_ip", address, local.serverCertificateFile.path])
            #expect(check.status == 0, "\(address): \(check.output)")
        }
        #expect(try local.ensure(names: ["testhost"], addresses: ["::1", "fd12:3456::a"], now: Date()).issued == nil)
    }

    @Test func theFingerprintIsOpenSSLsSHA256OfTheAuthority() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let local = authority(in: folder)
        let status = try local.ensure(names: names, addresses: addresses, now: Date())
        let openssl = try runTool("openssl", ["x509", "-in", local.caCertificateFile.path, "-noout", "-fingerprint", "-sha256"]).output
        let fingerprint = try local.caFingerprint()
        #expect(openssl.trimmingCharacters(in: .whitespacesAndNewlines) == "sha256 Fingerprint=\(fingerprint)")
        #expect(status.caFingerprint == fingerprint)
        #expect(fingerprint.count == 32 * 3 - 1)

        let der = try runTool("openssl", ["x509", "-in", local.caCertificateFile.path, "-outform", "DER", "-out", folder.appending("ca.der").path])
        #expect(der.status == 0)
        #expect(try local.caCertificateDER() == Data(contentsOf: folder.appending("ca.der")))

        // Chromium's --ignore-certificate-errors-spki-list value, computed by openssl.
        let spki = try runTool(
            "sh",
            [
                "-c",
                "openssl x509 -in '\(local.caCertificateFile.path)' -noout -pubkey | openssl pkey -pubin -outform DER | openssl dgst -sha256 -binary | base64",
            ]
        ).output
        #expect(spki.trimmingCharacters(in: .whitespacesAndNewlines) == (try local.caPublicKeyHash()))
    }

    @Test func keysArePrivateAndTheFolderIsTheOwnersOnly() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let local = authority(in: folder)
        // A folder made by hand with the usual 0755 is tightened.
        try FileManager.default.createDirectory(at: local.directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        try local.ensure(names: names, addresses: addresses, now: Date())
        #expect(try mode(local.directory) == 0o700)
        #expect(try mode(local.caKeyFile) == 0o600)
        #expect(try mode(local.serverKeyFile) == 0o600)
        // Certificates too, like every file in the data folder (the /tls page hands the CA out).
        #expect(try mode(local.caCertificateFile) == 0o600)
        #expect(try mode(local.serverCertificateFile) == 0o600)
        // No temporary files left behind.
        let files = try FileManager.default.contentsOfDirectory(atPath: local.directory.path).filter { !$0.hasPrefix(".lock") }.sorted()
        #expect(files == ["ca.crt", "ca.key", "server.crt", "server.key"])
    }
}
