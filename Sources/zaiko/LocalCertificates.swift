import Foundation
import Logging
import TLSCertificates

/// The certificates `zaiko serve` uses for HTTPS when the operator brings none: made on the first
/// start in `<data>/tls/`, then kept current by the renewal service.
enum LocalCertificates {
    static func folder(data: URL) -> URL { data.appendingPathComponent("tls") }

    /// The hostname as the system gives it, its first label, that label with `.local` (what
    /// mDNS answers to on the home network), and `localhost`.
    static func names(hostname: String) -> [String] {
        let short = hostname.split(separator: ".").first.map(String.init) ?? hostname
        var names: [String] = []
        for name in [hostname, short, "\(short).local", "localhost"] where !name.isEmpty && !names.contains(name) { names.append(name) }
        return names
    }

    static func addresses(lan: [String]) -> [String] { ["127.0.0.1"] + lan }

    /// Ensures the certificates now (a problem stops the start with its sentence), logs what was
    /// made, and returns the service that renews them a month before expiry and when the LAN
    /// addresses change, for the server's services to run.
    static func keep(
        data: URL, hostname: String = LocalAuthority.machineHostname(), lan: @escaping @Sendable () -> [String] = { NetworkAddresses.lan() },
        logger: Logger
    ) throws -> (authority: LocalAuthority, renewal: CertificateRenewal) {
        let authority = LocalAuthority(directory: folder(data: data), hostname: hostname)
        let renewal = CertificateRenewal(authority: authority, currentNames: { (names(hostname: hostname), addresses(lan: lan())) }) { result in
            switch result {
            case .success(let status): logger.notice("\(status.summary)")
            case .failure(let error): logger.error("The HTTPS certificate could not be renewed: \(error.description)")
            }
        }
        do {
            let status = try renewal.ensureNow()
            logger.info("\(status.summary)")
        } catch let error as CertificateError {
            throw Failure(message: error.description)
        }
        return (authority, renewal)
    }
}
