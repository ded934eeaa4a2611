import Foundation
import TLSCertificates
import TestSupport
import Testing

@Suite("Renewing the server certificate")
struct RenewalTests {
    let start = Date(timeIntervalSince1970: 1_795_000_000) // late 2026

    @Test func renewedAMonthBeforeExpiryAndWhenAnAddressIsAddedWithTheAuthorityUntouched() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let local = authority(in: folder)
        let first = try local.ensure(names: names, addresses: addresses, now: start)
        #expect(first.madeAuthority)
        #expect(first.issued == .missing)
        let authorityKey = try Data(contentsOf: local.caKeyFile)
        let authorityCertificate = try Data(contentsOf: local.caCertificateFile)
        let serverKey = try Data(contentsOf: local.serverKeyFile)
        let firstServer = try Data(contentsOf: local.serverCertificateFile)

        let day300 = try local.ensure(names: names, addresses: addresses, now: start + 300 * day)
        #expect(day300.issued == nil)
        #expect(!day300.madeAuthority)
        #expect(day300.serverExpires == first.serverExpires)
        #expect(try Data(contentsOf: local.serverCertificateFile) == firstServer)
        // The same names in another order and case are the same names.
        let shuffled = try local.ensure(names: names.reversed().map { $0.uppercased() }, addresses: addresses.reversed(), now: start + 301 * day)
        #expect(shuffled.issued == nil)

        let day367 = try local.ensure(names: names, addresses: addresses, now: start + 367 * day)
        #expect(day367.issued == .expiring)
        #expect(day367.serverExpires > first.serverExpires + 360 * day)
        #expect(try Data(contentsOf: local.serverCertificateFile) != firstServer)

        let moved = try local.ensure(names: names, addresses: addresses + ["10.0.0.7"], now: start + 368 * day)
        #expect(moved.issued == .namesChanged)
        #expect(moved.subjectNames.addresses.contains("10.0.0.7"))
        #expect(try certificateText(local.serverCertificateFile).contains("IP Address:10.0.0.7"))

        // The authority never changed; renewal kept the server key, so only server.crt was replaced.
        #expect(try Data(contentsOf: local.caKeyFile) == authorityKey)
        #expect(try Data(contentsOf: local.caCertificateFile) == authorityCertificate)
        #expect(try Data(contentsOf: local.serverKeyFile) == serverKey)
        let verified = try runTool(
            "openssl",
            [
                "verify", "-attime", "\(Int((start + 368 * day).timeIntervalSince1970))", "-CAfile", local.caCertificateFile.path,
                local.serverCertificateFile.path,
            ])
        #expect(verified.status == 0, "\(verified.output)")
    }

    @Test func aMissingServerKeyOrACertificateFromAnotherAuthorityIsReplaced() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let local = authority(in: folder)
        try local.ensure(names: names, addresses: addresses, now: start)
        try FileManager.default.removeItem(at: local.serverKeyFile)
        #expect(try local.ensure(names: names, addresses: addresses, now: start + day).issued == .missing)

        let other = LocalAuthority(directory: folder.appending("other"), hostname: "elsewhere")
        try other.ensure(names: names, addresses: addresses, now: start)
        try FileManager.default.removeItem(at: local.serverCertificateFile)
        try FileManager.default.copyItem(at: other.serverCertificateFile, to: local.serverCertificateFile)
        try FileManager.default.removeItem(at: local.serverKeyFile)
        try FileManager.default.copyItem(at: other.serverKeyFile, to: local.serverKeyFile)
        #expect(try local.ensure(names: names, addresses: addresses, now: start + 2 * day).issued == .otherAuthority)
        #expect(try runTool("openssl", ["verify", "-CAfile", local.caCertificateFile.path, local.serverCertificateFile.path]).status == 0)
    }

    @Test func rotationMakesANewAuthorityAndKeepsTheOldFiles() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let local = authority(in: folder)
        try local.ensure(names: names, addresses: addresses, now: Date())
        let oldFingerprint = try local.caFingerprint()
        let old = try [local.caCertificateFile, local.caKeyFile, local.serverCertificateFile, local.serverKeyFile].map { try Data(contentsOf: $0) }

        let rotated = try local.rotate(names: names, addresses: addresses, now: Date())
        #expect(rotated.madeAuthority)
        #expect(rotated.issued == .rotated)
        #expect(rotated.caFingerprint != oldFingerprint)
        #expect(try local.caFingerprint() == rotated.caFingerprint)
        #expect(try Data(contentsOf: local.caKeyFile) != old[1])
        #expect(try Data(contentsOf: local.serverKeyFile) != old[3])

        let files = try FileManager.default.contentsOfDirectory(atPath: local.directory.path)
        for (name, data) in zip(["ca", "ca", "server", "server"], old).enumerated().map({
            ($0.element.0 + ($0.offset % 2 == 0 ? ".crt" : ".key"), $0.element.1)
        }) {
            let base = name.split(separator: ".")[0]
            let suffix = name.split(separator: ".")[1]
            let kept = files.filter { $0.hasPrefix("\(base)-replaced-") && $0.hasSuffix(".\(suffix)") }
            #expect(kept.count == 1, "\(name) kept once: \(files)")
            if let kept = kept.first {
                #expect(try Data(contentsOf: local.directory.appendingPathComponent(kept)) == data)
                if suffix == "key" { #expect(try mode(local.directory.appendingPathComponent(kept)) == 0o600) }
            }
        }
        #expect(try runTool("openssl", ["verify", "-CAfile", local.caCertificateFile.path, local.serverCertificateFile.path]).status == 0)
        #expect(try pythonHandshake(local, host: "testhost.local").status == 0)
    }

    @Test func problemsAreOnePlainSentence() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // The data folder is a file: nothing can be made under it.
        try Data("not a folder".utf8).write(to: folder.appending("data"))
        let blocked = LocalAuthority(directory: folder.appending("data").appendingPathComponent("tls"), hostname: "testhost")
        #expect(
            throws: CertificateError("Cannot create the certificate folder \(blocked.directory.path); make its parent writable by the account that runs Zaiko.")
        ) {
            try blocked.ensure(names: names, addresses: addresses, now: Date())
        }

        let local = authority(in: folder)
        #expect(throws: CertificateError("192.168.1 is not an IP address.")) {
            try local.ensure(names: names, addresses: ["192.168.1"], now: Date())
        }
        try local.ensure(names: names, addresses: addresses, now: Date())
        try FileManager.default.removeItem(at: local.caKeyFile)
        let lost = #expect(throws: CertificateError.self) { try local.ensure(names: names, addresses: addresses, now: Date()) }
        #expect(lost?.description.contains("ca.key is missing") == true)
        #expect(lost?.description.contains("zaiko tls rotate") == true)
        #expect(!FileManager.default.fileExists(atPath: local.caKeyFile.path), "no new authority made behind the operator's back")

        try Data("garbage".utf8).write(to: local.caKeyFile)
        let garbage = #expect(throws: CertificateError.self) { try local.ensure(names: names, addresses: addresses, now: Date()) }
        #expect(garbage?.description.contains("is not a private key: GnuTLS could not read a private key:") == true, "\(String(describing: garbage))")
    }
}
