import CGD
import Foundation
import Inventory
import TestSupport
import Testing

@testable import Imaging

@Suite struct BarcodeTests {
    // zint's symbology numbers.
    static let zintEAN = 13, zintUPCA = 34, zintUPCE = 37, zintCode128 = 20, zintQR = 58

    @Test(arguments: [
        // (zint symbology, data given to zint, expected symbology, expected text)
        (zintEAN, "400638133393", Symbology.ean13, "4006381333931"),
        (zintEAN, "9638507", .ean8, "96385074"),
        (zintUPCA, "03600029145", .upca, "036000291452"),
        (zintUPCE, "0123456", .upce, "01234565"),
        (zintCode128, "ZAIKO-128-abc", .code128, "ZAIKO-128-abc"),
        (zintQR, "https://example.org/zaiko?item=42", .qr, "https://example.org/zaiko?item=42"),
    ])
    func generatedBarcodesDecode(zint: Int, data: String, symbology: Symbology, text: String) throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let found = try BarcodeReader.decode(Fixtures.zint(symbology: zint, data: data, in: folder))
        #expect(found == [Barcode(symbology: symbology, text: text)])
    }

    /// The EAN-13 as a phone would see it: small in a big, noisy, grey picture, turned
    /// `degrees`, slightly out of focus, JPEG-compressed.
    static func photoOfBarcode(_ barcodePNG: [UInt8], degrees: Double, seed: UInt64 = 3) throws -> [UInt8] {
        let barcode = try Fixtures.decode(barcodePNG)
        var random = SeededRandom(state: seed)
        let scene = Fixtures.canvas(1800, 1350) { image in
            // Grey table top with grain.
            for y in 0..<1350 {
                for x in 0..<1800 {
                    let v = 110 + random.below(50)
                    gdImageSetPixel(image, Int32(x), Int32(y), Int32(v << 16 | v << 8 | v))
                }
            }
            // The label, off-white paper, printed barcode 2.5× its zint size.
            let w = barcode.width * 5 / 2, h = barcode.height * 5 / 2
            Fixtures.fill(image, 600, 500, w + 80, h + 60, 0xF0EEE8)
            gdImageCopyResampled(
                image, barcode.pointer, 640, 530, 0, 0, Int32(w), Int32(h),
                Int32(barcode.width), Int32(barcode.height))
        }
        guard let turned = gdImageRotateInterpolated(scene.pointer, Float(degrees), 0x808080) else {
            throw ToolFailure(description: "rotation failed")
        }
        let photo = GDImage(taking: turned)
        // Soft focus.
        _ = gdImageGaussianBlur(photo.pointer)
        _ = gdImageGaussianBlur(photo.pointer)
        return Fixtures.encode(photo, .jpeg(80))
    }

    @Test(arguments: [10.0, -7.0, 90.0, 40.0])
    func photoOfABarcodeDecodes(degrees: Double) throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let ean = try Fixtures.zint(symbology: Self.zintEAN, data: "490123456789", in: folder)
        let photo = try Self.photoOfBarcode(ean, degrees: degrees)
        #expect(try BarcodeReader.decode(photo).first == Barcode(symbology: .ean13, text: "4901234567894"))
    }

    @Test func photoOfAQRCodeDecodes() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let qr = try Fixtures.zint(symbology: Self.zintQR, data: "zaiko:item/17", scale: 3, in: folder)
        let photo = try Self.photoOfBarcode(qr, degrees: 23)
        #expect(try BarcodeReader.decode(photo) == [Barcode(symbology: .qr, text: "zaiko:item/17")])
    }

    @Test func noBarcodeIsAnEmptyList() throws {
        #expect(try BarcodeReader.decode(Fixtures.encode(Fixtures.noisy(800, 600), .jpeg(85))) == [])
    }

    @Test func twoBarcodesAreBothReported() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try Fixtures.decode(Fixtures.zint(symbology: Self.zintEAN, data: "400638133393", in: folder))
        let second = try Fixtures.decode(Fixtures.zint(symbology: Self.zintCode128, data: "SHELF-7", in: folder))
        let sheet = Fixtures.canvas(first.width + second.width + 120, max(first.height, second.height) + 40) { image in
            gdImageCopy(image, first.pointer, 20, 20, 0, 0, Int32(first.width), Int32(first.height))
            gdImageCopy(image, second.pointer, Int32(first.width + 100), 20, 0, 0, Int32(second.width), Int32(second.height))
        }
        let found = try BarcodeReader.decode(Fixtures.encode(sheet, .png))
        #expect(Set(found.map(\.text)) == ["4006381333931", "SHELF-7"])
    }
}
