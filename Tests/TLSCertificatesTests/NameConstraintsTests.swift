import Foundation
import TLSCertificates
import TestSupport
import Testing

/// Zaiko's authority may sign only for the home network: a certificate made with its key for any
/// other site (a bank, example.com, a public address) fails verification, so a device that trusts
/// the authority trusts nothing beyond this box.
@Suite("The authority is limited to the home network")
struct NameConstraintsTests {
    /// A certificate for `subjectAltName` signed with the authority's own key by openssl, as a thief
    /// of `ca.key` would make it.
    func forgedLeaf(_ local: LocalAuthority, in folder: TemporaryFolder, commonName: String, subjectAltName: String) throws -> URL {
        let key = folder.appending("forged.key")
        let request = folder.appending("forged.csr")
        let leaf = folder.appending("forged.crt")
        _ = try runToolOrThrow(
            "openssl",
            [
                "req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key.path, "-subj", "/CN=\(commonName)",
                "-addext", "subjectAltName=\(subjectAltName)", "-out", request.path,
            ])
        _ = try runToolOrThrow(
            "openssl",
            [
                "x509", "-req", "-in", request.path, "-CA", local.caCertificateFile.path, "-CAkey", local.caKeyFile.path, "-set_serial", "7",
                "-days", "30", "-copy_extensions", "copy", "-out", leaf.path,
            ])
        return leaf
    }

    @Test func theNewAuthorityCarriesCriticalNameConstraintsForTheHomeNetwork() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let local = authority(in: folder)
        try local.ensure(names: names, addresses: addresses, now: Date())
        let text = try certificateText(local.caCertificateFile)
        #expect(text.contains("X509v3 Name Constraints: critical"))
        for permitted in [
            "DNS:testhost", "DNS:local", "DNS:localhost", "IP:10.0.0.0/255.0.0.0", "IP:172.16.0.0/255.240.0.0", "IP:192.168.0.0/255.255.0.0",
            "IP:127.0.0.0/255.0.0.0", "IP:169.254.0.0/255.255.0.0", "IP:FC00:0:0:0:0:0:0:0/FE00:0:0:0:0:0:0:0",
            "IP:FE80:0:0:0:0:0:0:0/FFC0:0:0:0:0:0:0:0", "IP:0:0:0:0:0:0:0:1/FFFF:FFFF:FFFF:FFFF:FFFF:FFFF:FFFF:FFFF",
        ] {
            #expect(text.contains(permitted), "\(permitted) in \(text)")
        }
        // The server's own certificate verifies, for each of its names and addresses.
        let own = try runTool("openssl", ["verify", "-CAfile", local.caCertificateFile.path, local.serverCertificateFile.path])
        #expect(own.status == 0, "\(own.output)")
        for host in names {
            let check = try runTool(
                "openssl", ["verify", "-CAfile", local.caCertificateFile.path, "-verify_hostname", host, local.serverCertificateFile.path])
            #expect(check.status == 0, "\(host): \(check.output)")
        }
    }

    @Test(arguments: [
        ("example.com", "DNS:example.com"), ("www.mybank.co.jp", "DNS:www.mybank.co.jp"), ("testhost.evil.example", "DNS:testhost.evil.example"),
        ("public", "IP:8.8.8.8"), ("public6", "IP:2001:db8::1"),
    ])
    func aCertificateSignedWithTheAuthoritysKeyForAnotherSiteFails(commonName: String, subjectAltName: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let local = authority(in: folder)
        try local.ensure(names: names, addresses: addresses, now: Date())
        let forged = try forgedLeaf(local, in: folder, commonName: commonName, subjectAltName: subjectAltName)
        let verified = try runTool("openssl", ["verify", "-CAfile", local.caCertificateFile.path, forged.path])
        #expect(verified.status != 0)
        #expect(verified.output.contains("permitted subtree violation"), "\(verified.output)")
        // The same forgery for a name of the home network verifies: the constraint, not the forging, refuses it.
        let allowed = try forgedLeaf(local, in: folder, commonName: "printer.local", subjectAltName: "DNS:printer.local")
        #expect(try runTool("openssl", ["verify", "-CAfile", local.caCertificateFile.path, allowed.path]).status == 0)
    }

    /// An address outside the constraints (a VPN's, a public one) is left out of the server's
    /// certificate, which would otherwise fail as a whole; its other names keep working.
    @Test func anAddressOutsideTheHomeNetworkIsLeftOutOfTheServersCertificate() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let local = authority(in: folder)
        let status = try local.ensure(names: names, addresses: addresses + ["203.0.113.9"], now: Date())
        #expect(status.subjectNames.addresses == ["127.0.0.1", "192.168.1.20"])
        #expect(try runTool("openssl", ["verify", "-CAfile", local.caCertificateFile.path, local.serverCertificateFile.path]).status == 0)
        // Nothing to renew on the next look: the wanted names are the permitted ones.
        #expect(try local.ensure(names: names, addresses: addresses + ["203.0.113.9"], now: Date()).issued == nil)
    }

    /// An authority made before the constraints (here by openssl, without them) keeps signing the
    /// server's certificate until `zaiko tls rotate` replaces it with a constrained one.
    @Test func anOlderAuthorityKeepsWorkingUntilRotated() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let local = authority(in: folder)
        try FileManager.default.createDirectory(at: local.directory, withIntermediateDirectories: true)
        // Its key identifier as Zaiko writes it (SHA-256 of the public key), so the leaf's names it.
        _ = try runToolOrThrow("openssl", ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-out", local.caKeyFile.path])
        let publicKey = folder.appending("ca-public.der")
        _ = try runToolOrThrow("openssl", ["pkey", "-in", local.caKeyFile.path, "-pubout", "-outform", "DER", "-out", publicKey.path])
        let keyID = try runToolOrThrow("openssl", ["dgst", "-sha256", "-r", publicKey.path]).split(separator: " ")[0]
        _ = try runToolOrThrow(
            "openssl",
            [
                "req", "-x509", "-key", local.caKeyFile.path, "-out", local.caCertificateFile.path, "-subj", "/CN=Zaiko at testhost",
                "-days", "3650", "-addext", "basicConstraints=critical,CA:TRUE,pathlen:0", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
                "-addext", "subjectKeyIdentifier=\(keyID)", "-addext", "authorityKeyIdentifier=none",
            ])
        let old = try local.ensure(names: names, addresses: addresses + ["203.0.113.9"], now: Date())
        #expect(!old.madeAuthority)
        #expect(old.subjectNames.addresses.contains("203.0.113.9"))
        #expect(try runTool("openssl", ["verify", "-CAfile", local.caCertificateFile.path, local.serverCertificateFile.path]).status == 0)
        #expect(!(try certificateText(local.caCertificateFile)).contains("Name Constraints"))

        try local.rotate(names: names, addresses: addresses, now: Date())
        #expect(try certificateText(local.caCertificateFile).contains("X509v3 Name Constraints: critical"))
        #expect(try runTool("openssl", ["verify", "-CAfile", local.caCertificateFile.path, local.serverCertificateFile.path]).status == 0)
    }
}
