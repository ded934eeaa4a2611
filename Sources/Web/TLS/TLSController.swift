import Foundation
import HTTPServer

/// The addresses of the CA's page and downloads: a phone reaches them over plain HTTP before it
/// trusts the CA, so `--https-only` does not redirect them.
public enum TLSPaths {
    public static let page = "/tls"
    public static let pem = "/tls/zaiko-ca.crt"
    public static let der = "/tls/zaiko-ca.cer"
    public static let appleProfile = "/tls/zaiko.mobileconfig"
    public static let all: Set<String> = [page, pem, der, appleProfile]
}

/// `/tls`: how to trust Zaiko's local certificate authority on each kind of device, and the
/// certificate itself (PEM, DER, an iPhone profile). Open to anyone, before setup included:
/// a phone needs it before it can sign in over HTTPS.
struct TLSController {
    let file: CACertificateFile?
    let source: TLSPageSource?
    let renderer: Renderer

    func register(in router: inout Router<Endpoint>) {
        router.get(TLSPaths.page, .open, use: show)
        // Android, macOS and Linux take the PEM `.crt`; Windows opens a DER `.cer` with its own dialog.
        router.get(TLSPaths.pem, .asset, use: pem)
        router.get(TLSPaths.der, .asset, use: der)
        router.get(TLSPaths.appleProfile, .asset, use: appleProfile)
    }

    /// How to trust the CA, device by device.
    func show(_ context: RequestContext) throws -> Response {
        renderer.response(TLSPage(context, certificate: file?.current, addresses: source?.addresses ?? []), context)
    }

    func pem(_ context: RequestContext) throws -> Response {
        guard let certificate = file?.current else { return renderer.errorResponse(404, locale: context.locale) }
        return Self.download(certificate.pem, type: "application/x-x509-ca-cert", name: "zaiko-ca.crt")
    }

    func der(_ context: RequestContext) throws -> Response {
        guard let certificate = file?.current else { return renderer.errorResponse(404, locale: context.locale) }
        return Self.download(certificate.der, type: "application/pkix-cert", name: "zaiko-ca.cer")
    }

    /// The certificate in a configuration profile, which iPhones and iPads install.
    func appleProfile(_ context: RequestContext) throws -> Response {
        guard let certificate = file?.current else { return renderer.errorResponse(404, locale: context.locale) }
        let profile = try AppleProfile.data(for: certificate, description: context.locale[.tlsProfileDescription])
        return Self.download(Array(profile), type: AppleProfile.contentType, name: "zaiko.mobileconfig")
    }

    static func download(_ bytes: [UInt8], type: String, name: String) -> Response {
        Response(
            status: 200, headers: [("Content-Type", type), ("Content-Disposition", "attachment; filename=\"\(name)\"")], body: .bytes(bytes))
    }
}
