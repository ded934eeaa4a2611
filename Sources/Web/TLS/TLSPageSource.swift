import Foundation
import Synchronization

/// What the /tls page hands out: the local CA's certificate file (PEM, written by the HTTPS
/// set-up; missing while HTTPS is off) and the addresses HTTPS is served at, LAN ones first.
public struct TLSPageSource: Sendable {
    public var certificate: URL
    private let origins: Origins

    /// Full origins such as `https://192.168.1.20:8443`.
    public var addresses: [String] { origins.value.withLock { $0 } }

    public init(certificate: URL, addresses: [String] = []) {
        self.certificate = certificate
        origins = Origins(addresses)
    }

    /// The addresses once the HTTPS listener knows its port (`--https-port 0` picks one when it
    /// starts, after the app is built); every copy of this source sees them.
    public func announce(_ addresses: [String]) { origins.value.withLock { $0 = addresses } }

    private final class Origins: Sendable {
        let value: Mutex<[String]>
        init(_ addresses: [String]) { value = Mutex(addresses) }
    }
}

/// Whether a page should point the reader to /tls: it came over plain HTTP and this server has
/// a certificate authority to install.
struct HTTPSHelp: Sendable {
    let file: CACertificateFile?

    func offered(_ context: RequestContext) -> Bool { !context.request.isSecure && file?.current != nil }
}
