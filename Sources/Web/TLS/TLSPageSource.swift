import Foundation

/// What the /tls page hands out: the local CA's certificate file (PEM, written by the HTTPS
/// set-up; missing while HTTPS is off) and the addresses HTTPS is served at, LAN ones first.
public struct TLSPageSource: Sendable {
    public var certificate: URL
    /// Full origins such as `https://192.168.1.20:8443`.
    public var addresses: [String]

    public init(certificate: URL, addresses: [String]) {
        self.certificate = certificate
        self.addresses = addresses
    }
}

/// Whether a page should point the reader to /tls: it came over plain HTTP and this server has
/// a certificate authority to install.
struct HTTPSHelp: Sendable {
    let file: CACertificateFile?

    func offered(_ context: RequestContext) -> Bool { !context.request.isSecure && file?.current != nil }
}
