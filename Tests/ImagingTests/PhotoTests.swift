import CGD
import Foundation
import TestSupport
import Testing

@testable import Imaging

@Suite struct PhotoTests {
    /// 600×200: red, green and blue thirds. The centred square is the green third.
    static var thirds: GDImage {
        Fixtures.canvas(600, 200) { image in
            Fixtures.fill(image, 0, 0, 200, 200, Fixtures.red)
            Fixtures.fill(image, 200, 0, 200, 200, Fixtures.green)
            Fixtures.fill(image, 400, 0, 200, 200, Fixtures.blue)
        }
    }

    static func expectSolid(_ bytes: [UInt8], _ color: Int, side: Int, _ label: String = "") throws {
        let image = try Fixtures.decode(bytes)
        #expect(image.size == PixelSize(width: side, height: side))
        let inset = side / 8
        for (x, y) in [(inset, inset), (side - inset, inset), (inset, side - inset), (side - inset, side - inset), (side / 2, side / 2)] {
            let actual = image.rgb(x: x, y: y)
            #expect(Fixtures.isClose(actual, to: color), "\(label): at (\(x), \(y)) \(Fixtures.hex(actual)), expected \(Fixtures.hex(color))")
        }
    }

    @Test(arguments: [("jpeg", Fixtures.Encoding.jpeg(90)), ("png", .png), ("webp", .webp)])
    func everyFormatNormalisesToTwoSquares(name: String, encoding: Fixtures.Encoding) throws {
        let bytes = Fixtures.encode(Self.thirds, encoding)
        #expect(ImageFormat.detect(bytes)?.rawValue == name)
        #expect(try PhotoNormalizer.pixelSize(bytes) == PixelSize(width: 600, height: 200))
        let photo = try PhotoNormalizer.normalize(bytes)
        #expect(photo.format == .jpeg)
        #expect(photo.source == PixelSize(width: 600, height: 200))
        #expect(ImageFormat.detect(photo.large) == .jpeg)
        try Self.expectSolid(photo.large, Fixtures.green, side: 512, "\(name) large")
        try Self.expectSolid(photo.small, Fixtures.green, side: 128, "\(name) small")
    }

    /// HEIC (HEVC) and AVIF (AV1), made by heif-enc from a PNG.
    @Test(arguments: ["heic", "avif"])
    func heifFamilyNormalises(fileExtension: String) throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let png = folder.appendingPathComponent("thirds.png")
        let output = folder.appendingPathComponent("thirds.\(fileExtension)")
        try Data(Fixtures.encode(Self.thirds, .png)).write(to: png)
        try Fixtures.run("heif-enc", ["-q", "90", png.path, "-o", output.path])
        let bytes = try [UInt8](Data(contentsOf: output))

        #expect(ImageFormat.detect(bytes) == .heif)
        #expect(try PhotoNormalizer.pixelSize(bytes) == PixelSize(width: 600, height: 200))
        let photo = try PhotoNormalizer.normalize(bytes)
        #expect(photo.source == PixelSize(width: 600, height: 200))
        try Self.expectSolid(photo.large, Fixtures.green, side: 512, fileExtension)
        try Self.expectSolid(photo.small, Fixtures.green, side: 128, fileExtension)
    }

    @Test func webpOutputWhenAskedFor() throws {
        let photo = try PhotoNormalizer.normalize(Fixtures.encode(Self.thirds, .png), encoding: .webp(quality: 80))
        #expect(photo.format == .webp)
        #expect(ImageFormat.detect(photo.large) == .webp)
        #expect(ImageFormat.detect(photo.small) == .webp)
        try Self.expectSolid(photo.large, Fixtures.green, side: 512, "webp large")
    }

    @Test(arguments: [
        // (crop, expected colour): x and y are fractions of width and height, side of the short side.
        (SquareCrop(x: 0, y: 0, side: 1), Fixtures.red),
        (SquareCrop(x: 1.0 / 3, y: 0, side: 1), Fixtures.green),
        (SquareCrop(x: 2.0 / 3, y: 0, side: 1), Fixtures.blue),
        (SquareCrop(x: 0.95, y: 0.5, side: 1), Fixtures.blue), // clamped to the right edge
        (SquareCrop(x: -3, y: -3, side: 1), Fixtures.red), // clamped to the left edge
        (SquareCrop(x: 0.05, y: 0.25, side: 0.5), Fixtures.red), // a smaller square inside red
        (SquareCrop(x: 0.75, y: 0.5, side: 0.5), Fixtures.blue),
        (SquareCrop(x: 0.9, y: 0.5, side: 7), Fixtures.blue), // side clamped to 1, then x
        (SquareCrop(x: .nan, y: .infinity, side: .nan), Fixtures.green), // nonsense centres it
    ])
    func userCropPicksTheSquare(crop: SquareCrop, expected: Int) throws {
        let photo = try PhotoNormalizer.normalize(Fixtures.encode(Self.thirds, .png), crop: crop)
        try Self.expectSolid(photo.large, expected, side: 512, "\(crop)")
        try Self.expectSolid(photo.small, expected, side: 128, "\(crop)")
    }

    @Test func cropRegionIsClampedAndMappedToStoredPixels() {
        let size = PixelSize(width: 400, height: 300)
        #expect(SquareRegion(nil, in: size) == SquareRegion(x: 50, y: 0, side: 300))
        #expect(SquareRegion(SquareCrop(x: 0.5, y: 0.5, side: 0.5), in: size) == SquareRegion(x: 200, y: 150, side: 150))
        #expect(SquareRegion(SquareCrop(x: 0.9, y: 0.9, side: 0.5), in: size) == SquareRegion(x: 250, y: 150, side: 150))
        #expect(SquareRegion(SquareCrop(x: 0, y: 0, side: 0), in: size).side == 1)
        // Past Int64 once multiplied (issue 22): bounded while still a Double, never a trap.
        #expect(SquareRegion(SquareCrop(x: 1e300, y: -1e300, side: 0.5), in: size) == SquareRegion(x: 250, y: 0, side: 150))
        #expect(SquareRegion(SquareCrop(x: .infinity, y: .nan, side: .infinity), in: size) == SquareRegion(x: 50, y: 0, side: 300))
        // Displayed top-left 100×100 of a photo stored 400×300 and shown turned clockwise
        // (300×400) is the stored bottom-left corner.
        let shown = SquareRegion(x: 0, y: 0, side: 100)
        #expect(shown.storedRegion(.rotatedClockwise, stored: size) == SquareRegion(x: 0, y: 200, side: 100))
        #expect(shown.storedRegion(.rotatedCounterClockwise, stored: size) == SquareRegion(x: 300, y: 0, side: 100))
    }

    @Test func smallPicturesAreEnlargedToTheSameTwoSizes() throws {
        let tiny = Fixtures.canvas(20, 10, background: Fixtures.green)
        let photo = try PhotoNormalizer.normalize(Fixtures.encode(tiny, .png))
        try Self.expectSolid(photo.large, Fixtures.green, side: 512)
        try Self.expectSolid(photo.small, Fixtures.green, side: 128)
    }

    @Test func transparencyBecomesWhite() throws {
        let image = Fixtures.canvas(100, 100)
        gdImageAlphaBlending(image.pointer, 0)
        gdImageSaveAlpha(image.pointer, 1)
        Fixtures.fill(image.pointer, 0, 0, 100, 100, 0x7F00_0000) // fully transparent black
        let photo = try PhotoNormalizer.normalize(Fixtures.encode(image, .png))
        try Self.expectSolid(photo.large, Fixtures.white, side: 512, "transparent PNG")
    }

    @Test func metadataIsStripped() throws {
        let source = OrientationTests.taggedPhoto(orientation: 1)
        // The fixture really carries what must not survive.
        for marker in ["Exif", "GPS", "kitchen", "xmpmeta", "ICC_PROFILE", "taken at home", "CREATOR"] {
            #expect(source.contains(marker), "fixture lacks \(marker)")
        }
        for encoding in [PhotoEncoding.jpeg(quality: 82), .webp(quality: 80)] {
            let photo = try PhotoNormalizer.normalize(source, encoding: encoding)
            for output in [photo.large, photo.small] {
                for marker in ["Exif", "GPS", "kitchen", "xmpmeta", "ICC", "taken at home", "CREATOR", "gd-jpeg"] {
                    #expect(!output.contains(marker), "\(encoding) output contains \(marker)")
                }
                if encoding == .standard { #expect(Self.jpegMarkers(output).allSatisfy { $0 == 0xE0 || !(0xE1...0xEF).contains($0) && $0 != 0xFE }) }
            }
        }
    }

    /// The markers of a JPEG's segments before the scan.
    static func jpegMarkers(_ bytes: [UInt8]) -> [Int] {
        var markers: [Int] = []
        var offset = 2
        while offset + 4 <= bytes.count, bytes[offset] == 0xFF {
            let marker = Int(bytes[offset + 1])
            markers.append(marker)
            if marker == 0xDA { break }
            offset += 2 + (Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3]))
        }
        return markers
    }

    @Test func concurrentCallsGiveTheSameResult() async throws {
        let source = OrientationTests.taggedPhoto(orientation: 6)
        let expected = try PhotoNormalizer.normalize(source).large
        // On threads of their own: sixteen decodes in a task group would hold every cooperative thread.
        let results = try await concurrently(16) { try? PhotoNormalizer.normalize(source).large }
        #expect(results.count == 16)
        #expect(results.allSatisfy { $0 == expected })
    }
}
