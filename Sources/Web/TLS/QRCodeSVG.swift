import CQRencode
import TemplateRuntime

/// A QR code drawn as SVG from libqrencode's module matrix: one dark path over a light square
/// with the four-module quiet zone scanners need. Presentation attributes, no `style`, so the
/// page's CSP (no inline styles) lets it render inline. The markup is `partials/qr-code`.
enum QRCodeSVG {
    static let quietZone = 4

    /// Nil when the text does not fit in a QR code.
    static func drawing(for text: String, label: String) -> QRCodeDrawing? {
        guard let code = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else { return nil }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        let modules = UnsafeBufferPointer(start: code.pointee.data, count: width * width)
        let side = width + 2 * quietZone
        // Runs of dark modules along each row: one "move, right, down, left" each.
        var path = ""
        for y in 0..<width {
            var x = 0
            while x < width {
                guard modules[y * width + x] & 1 == 1 else {
                    x += 1
                    continue
                }
                let start = x
                while x < width, modules[y * width + x] & 1 == 1 { x += 1 }
                path += "M\(start + quietZone) \(y + quietZone)h\(x - start)v1h-\(x - start)z"
            }
        }
        return QRCodeDrawing(side: side, label: label, path: path)
    }

    /// The drawing as SVG markup (nil when the text does not fit in a QR code).
    static func svg(for text: String, label: String) -> String? {
        drawing(for: text, label: label).map(\.html)
    }
}

/// A QR code's SVG (`Templates/partials/qr-code.mustache`, compiled): `side` modules square
/// with the quiet zone, drawn at 4 px a module; `path` is the dark modules' runs.
struct QRCodeDrawing: Sendable {
    let side: Int
    let label: String
    let path: String

    var size: Int { side * 4 }

    var html: String {
        var writer = HTMLWriter(capacity: 1024 + path.utf8.count)
        render(into: &writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
