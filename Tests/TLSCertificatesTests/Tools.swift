import Foundation
import TLSCertificates
import TestSupport

/// `openssl x509 -noout -text` of a PEM file's first certificate.
func certificateText(_ file: URL) throws -> String {
    try runTool("openssl", ["x509", "-in", file.path, "-noout", "-text"]).output
}

/// notBefore and notAfter as openssl reads them.
func validity(_ file: URL) throws -> (from: Date, until: Date) {
    let output = try runTool("openssl", ["x509", "-in", file.path, "-noout", "-dates", "-dateopt", "iso_8601"]).output
    func date(_ key: String) -> Date {
        let line = output.split(separator: "\n").first { $0.hasPrefix(key + "=") } ?? ""
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate, .withTime, .withColonSeparatorInTime, .withSpaceBetweenDateAndTime, .withTimeZone]
        return formatter.date(from: String(line.dropFirst(key.count + 1))) ?? .distantPast
    }
    return (date("notBefore"), date("notAfter"))
}

func mode(_ url: URL) throws -> Int {
    (try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
}

/// A TLS handshake in Python's `ssl`, both ends in one process over a socket pair: the server
/// loads server.crt and server.key, the client trusts only ca.crt, checks `host` and the chain strictly.
/// Prints the protocol version and what the server sent; non-zero exit when refused.
func pythonHandshake(_ authority: LocalAuthority, host: String) throws -> (status: Int32, output: String) {
    let script = """
        import socket, ssl, sys, threading
        cert, key, ca, host = sys.argv[1:5]
        server = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        server.load_cert_chain(cert, key)
        client = ssl.create_default_context(cafile=ca)
        # What Python 3.13 turns on by default: RFC 5280 checks on every certificate in the chain.
        client.verify_flags |= ssl.VERIFY_X509_STRICT
        a, b = socket.socketpair()
        def serve():
            try:
                with server.wrap_socket(a, server_side=True) as s:
                    s.sendall(b"hello")
            except Exception:
                pass
        thread = threading.Thread(target=serve)
        thread.start()
        try:
            with client.wrap_socket(b, server_hostname=host) as c:
                print(c.version(), c.recv(5).decode())
        finally:
            a.close()
            thread.join()
        """
    return try runTool(
        "python3",
        ["-c", script, authority.serverCertificateFile.path, authority.serverKeyFile.path, authority.caCertificateFile.path, host])
}

let names = ["testhost", "testhost.local", "localhost"]
let addresses = ["127.0.0.1", "192.168.1.20"]
let day: TimeInterval = 86_400

func authority(in folder: TemporaryFolder) -> LocalAuthority {
    LocalAuthority(directory: folder.appending("tls"), hostname: "testhost")
}
