import Foundation
import HTTPServer
import Logging
import Web

/// A certificate chain (leaf first) and its key as PEM files: the one way a certificate reaches
/// the HTTPS listener, whoever made it (the operator's `--tls-cert/--tls-key`, or Zaiko's own
/// local CA in `<data>/tls/`). Read again whenever the files change.
struct CertificateFiles: Equatable {
    let certificate: URL
    let key: URL
}

/// What `serve` was asked about HTTPS, checked before anything listens.
struct HTTPSChoice {
    let port: UInt16
    let files: CertificateFiles
    /// The HTTP port only redirects (except `/healthz`).
    let httpsOnly: Bool

    /// nil: plain HTTP only. `ownCertificate` gives Zaiko's own certificate (its local CA's) when
    /// the operator named none.
    static func resolve(
        port: UInt16, disabled: Bool, certificate: String?, key: String?, httpsOnly: Bool,
        ownCertificate: () throws -> CertificateFiles
    ) throws -> HTTPSChoice? {
        if disabled {
            if httpsOnly { throw Failure(message: "--https-only needs HTTPS; drop --no-https or --https-only.") }
            return nil
        }
        let files: CertificateFiles
        switch (certificate, key) {
        case (let certificate?, let key?):
            files = CertificateFiles(certificate: URL(fileURLWithPath: certificate), key: URL(fileURLWithPath: key))
        case (nil, nil):
            files = try ownCertificate()
        default:
            throw Failure(message: "Give --tls-cert and --tls-key together: the certificate file and its key file.")
        }
        return HTTPSChoice(port: port, files: files, httpsOnly: httpsOnly)
    }

    /// The HTTPS listener: the HTTP configuration on another port, with the certificate; a
    /// certificate that changes but cannot be loaded is logged, the previous one kept.
    func server(like http: ServerConfiguration, responder: any Responder, logger: Logger) -> Server {
        var configuration = http
        configuration.port = port
        configuration.tls = TLSListener(certificateFile: files.certificate, keyFile: files.key)
        let server = Server(configuration: configuration, responder: responder)
        server.certificateReloadFailed = { message in logger.warning("\(message)") }
        return server
    }

    /// What the HTTP port answers: the application, or with `--https-only` a redirect to HTTPS.
    /// `/healthz` stays on HTTP: health checks (Docker, a monitor, `curl localhost`) do not trust
    /// the local CA, and the answer carries nothing private. So do `/tls` and the CA's downloads:
    /// a phone must fetch the CA over HTTP before it can trust the HTTPS address.
    func httpResponder(_ application: any Responder, httpsPort: UInt16) -> any Responder {
        httpsOnly ? HTTPSRedirect(to: httpsPort, exempt: Self.plainHTTPPaths, application: application) : application
    }

    static let plainHTTPPaths: Set<String> = TLSPaths.all.union(["/healthz"])
}
