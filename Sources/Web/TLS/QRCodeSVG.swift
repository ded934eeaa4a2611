import CQRencode

/// A QR code drawn as SVG from libqrencode's module matrix: one dark path over a light square
/// with the four-module quiet zone scanners need. Presentation attributes, no `style`, so the
/// page's CSP (no inline styles) lets it render inline.
enum QRCodeSVG {
    static let quietZone = 4

    /// Nil when the text does not fit in a QR code.
    static func svg(for text: String, label: String) -> String? {
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
        return """
            <svg class="qr-code" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(side) \(side)" width="\(side * 4)" height="\(side * 4)" \
            role="img" aria-label="\(HTML.escape(label))" shape-rendering="crispEdges">\
            <rect width="\(side)" height="\(side)" fill="#fff"/><path fill="#000" d="\(path)"/></svg>
            """
    }
}
