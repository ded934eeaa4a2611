import CGD
import Imaging
import Testing

@testable import Web

/// The QR code on /tls is drawn from libqrencode's matrix: painted back into pixels exactly as the
/// SVG says, zbar reads the address from it.
@Suite("QR codes as SVG")
struct QRCodeSVGTests {
    /// Paints the SVG's path (runs of `M x y h w v1 h-w z`) at `scale` pixels per module into a PNG.
    static func png(_ svg: String, scale: Int32 = 6) throws -> [UInt8] {
        let viewBox = try #require(svg.components(separatedBy: "viewBox=\"0 0 ").dropFirst().first?.split(separator: " ").first)
        let side = try #require(Int32(viewBox))
        let image = try #require(gdImageCreateTrueColor(side * scale, side * scale))
        defer { gdImageDestroy(image) }
        gdImageFilledRectangle(image, 0, 0, side * scale - 1, side * scale - 1, 0xFFFFFF)
        let path = try #require(svg.components(separatedBy: " d=\"").dropFirst().first?.prefix { $0 != "\"" })
        for run in path.split(separator: "z") {
            let numbers = run.dropFirst().split(whereSeparator: { "hv ".contains($0) }).compactMap { Int32($0) }
            try #require(numbers.count == 5) // x, y, width, 1, -width
            let (x, y, width) = (numbers[0], numbers[1], numbers[2])
            gdImageFilledRectangle(image, x * scale, y * scale, (x + width) * scale - 1, (y + 1) * scale - 1, 0x000000)
        }
        var size: Int32 = 0
        let data = try #require(gdImagePngPtr(image, &size))
        defer { gdFree(data) }
        return Array(UnsafeRawBufferPointer(start: data, count: Int(size)))
    }

    @Test func theDrawnCodeReadsBackAsTheAddress() throws {
        for address in ["https://192.168.1.20:8443", "https://[fd00::1234]:8443"] {
            let svg = try #require(QRCodeSVG.svg(for: address, label: "QR"))
            let found = try BarcodeReader.decode(try Self.png(svg))
            #expect(found.map(\.text) == [address])
            #expect(found.first?.symbology == .qr)
        }
    }

    @Test func theLabelIsEscapedAndNoStyleAttributeIsUsed() throws {
        let svg = try #require(QRCodeSVG.svg(for: "https://x", label: "a \"b\" <c>"))
        #expect(svg.contains("aria-label=\"a &quot;b&quot; &lt;c&gt;\""))
        #expect(!svg.contains("style="))
    }
}
