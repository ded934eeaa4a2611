import Foundation
import HTTPServer

/// `/tls`: how to trust Zaiko's local certificate authority on each kind of device, and the
/// certificate itself (PEM, DER, an iPhone profile). Open to anyone, before setup included:
/// a phone needs it before it can sign in over HTTPS.
struct TLSController {
    let file: CACertificateFile?
    let source: TLSPageSource?
    let renderer: Renderer

    func register(in router: inout Router<Endpoint>) {
        router.get("/tls", .open) { context in
            renderer.response(TLSPage(context, certificate: file?.current, addresses: source?.addresses ?? []), context)
        }
        // Android, macOS and Linux take the PEM `.crt`; Windows opens a DER `.cer` with its own dialog.
        router.get("/tls/zaiko-ca.crt", .asset) { context in
            guard let certificate = file?.current else { return renderer.errorResponse(404, locale: context.locale) }
            return Self.download(certificate.pem, type: "application/x-x509-ca-cert", name: "zaiko-ca.crt")
        }
        router.get("/tls/zaiko-ca.cer", .asset) { context in
            guard let certificate = file?.current else { return renderer.errorResponse(404, locale: context.locale) }
            return Self.download(certificate.der, type: "application/pkix-cert", name: "zaiko-ca.cer")
        }
        router.get("/tls/zaiko.mobileconfig", .asset) { context in
            guard let certificate = file?.current else { return renderer.errorResponse(404, locale: context.locale) }
            let profile = try AppleProfile.data(for: certificate, description: context.locale["tls_profile_description"])
            return Self.download(Array(profile), type: AppleProfile.contentType, name: "zaiko.mobileconfig")
        }
    }

    static func download(_ bytes: [UInt8], type: String, name: String) -> Response {
        Response(
            status: 200, headers: [("Content-Type", type), ("Content-Disposition", "attachment; filename=\"\(name)\"")], body: .bytes(bytes))
    }
}
