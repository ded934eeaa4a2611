import Foundation
import Inventory

/// The /tls page's values: whether HTTPS is on, whether this page came over it, the addresses
/// with a QR code of the first, and the certificate's name, end and fingerprint.
struct TLSPage: CompiledPage {
    let available: Bool
    let secure: Bool
    let addresses: [String]
    let caName: String
    let expires: String
    /// The fingerprint in groups of eight bytes, each but the last ending in a colon, so a phone
    /// wraps it between groups and the text copied is the whole fingerprint.
    let fingerprintGroups: [String]
    let qr: QRCodeDrawing?
    let caLine: String
    let qrCaption: String
    let platforms: [Platform]

    /// One kind of device and the steps that make it trust the CA.
    struct Platform: Sendable {
        let id: String
        let name: String
        let steps: [String]
    }

    /// Steps per device, from the catalog keys `tls_<id>_1` … `tls_<id>_<count>`.
    static let stepCounts = [("ios", 4), ("android", 4), ("mac", 3), ("windows", 3)]

    init(_ context: RequestContext, certificate: CACertificate?, addresses: [String]) {
        let t = context.locale
        available = certificate != nil
        secure = context.request.isSecure
        self.addresses = addresses
        caName = certificate?.commonName ?? ""
        expires =
            certificate.map {
                var style = Date.FormatStyle(date: .long, time: .omitted)
                style.locale = Locale(identifier: t.code)
                return $0.expires.formatted(style)
            } ?? ""
        let pairs = certificate.map { $0.fingerprint.split(separator: ":").map(String.init) } ?? []
        fingerprintGroups = stride(from: 0, to: pairs.count, by: 8).map { start in
            let group = pairs[start..<min(start + 8, pairs.count)].joined(separator: ":")
            return start + 8 < pairs.count ? group + ":" : group
        }
        let address = addresses.first ?? t[.tlsAddressFallback]
        let values = ["name": caName, "address": address]
        caLine = t.format(.tlsCaLine, ["name": caName, "date": expires])
        qrCaption = t.format(.tlsQrCaption, values)
        platforms = Self.stepCounts.map { id, count in
            Platform(id: id, name: t[.tlsPlatform, id], steps: (1...count).map { t.format(.tlsPlatform, "\(id)_\($0)", values) })
        }
        qr = available ? addresses.first.flatMap { QRCodeSVG.drawing(for: $0, label: t.format(.tlsQrLabel, ["address": $0])) } : nil
    }

    func title(_ t: Catalog) -> String { t[.tlsHeading] }

    var hasAddresses: Bool { !addresses.isEmpty }
    var firstAddress: String? { addresses.first }
    var hasQR: Bool { qr != nil }
}
