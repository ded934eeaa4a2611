import CGD
import Foundation
import TestSupport

@testable import Imaging

/// Pictures made at test time with libgd and the command-line tools in TEST_PACKAGES.
enum Fixtures {
    static let red = 0xFF0000, green = 0x00FF00, blue = 0x0000FF, white = 0xFFFFFF

    /// A fresh folder under the system temp folder.
    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("zaiko-imaging-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A true-colour canvas filled with `background`, then drawn on.
    static func canvas(
        _ width: Int, _ height: Int, background: Int = white,
        draw: (gdImagePtr) -> Void = { _ in }
    ) -> GDImage {
        guard let image = GDImage(width: width, height: height) else { fatalError("gdImageCreateTrueColor failed") }
        fill(image.pointer, 0, 0, width, height, background)
        draw(image.pointer)
        return image
    }

    static func fill(_ image: gdImagePtr, _ x: Int, _ y: Int, _ width: Int, _ height: Int, _ color: Int) {
        gdImageFilledRectangle(image, Int32(x), Int32(y), Int32(x + width - 1), Int32(y + height - 1), Int32(color))
    }

    enum Encoding { case jpeg(Int), png, webp }

    /// libgd's own encoders, untouched (the JPEG keeps gd's comment, which normalisation must drop).
    static func encode(_ image: GDImage, _ encoding: Encoding) -> [UInt8] {
        var size: Int32 = 0
        let data: UnsafeMutableRawPointer? =
            switch encoding {
            case .jpeg(let quality): gdImageJpegPtr(image.pointer, &size, Int32(quality))
            case .png: gdImagePngPtr(image.pointer, &size)
            case .webp: gdImageWebpPtrEx(image.pointer, &size, 90)
            }
        guard let data else { fatalError("libgd could not encode") }
        defer { gdFree(data) }
        return Array(UnsafeRawBufferPointer(start: data, count: Int(size)))
    }

    /// Decodes an output of the normaliser (any format) for inspection.
    static func decode(_ bytes: [UInt8]) throws -> GDImage {
        try GDImage.decode(bytes, header: ImageHeader.read(bytes))
    }

    /// Inserts, right after SOI: an Exif APP1 with the orientation tag, an image description
    /// that looks like a GPS position, an XMP APP1, an ICC APP2 and a comment.
    static func withMetadata(_ jpeg: [UInt8], orientation: Int) -> [UInt8] {
        let secret = Array("GPS 35.6895N 139.6917E kitchen\0".utf8)
        // Little-endian TIFF: header, IFD0 with two entries, then the description text.
        var tiff: [UInt8] = Array("II".utf8) + le16(42) + le32(8)
        let textOffset = 8 + 2 + 2 * 12 + 4
        tiff += le16(2)
        tiff += le16(0x010E) + le16(2) + le32(secret.count) + le32(textOffset) // ImageDescription
        tiff += le16(0x0112) + le16(3) + le32(1) + le16(orientation) + le16(0) // Orientation
        tiff += le32(0) // no next IFD
        tiff += secret
        let exif = segment(0xE1, Array("Exif\0\0".utf8) + tiff)
        let xmp = segment(0xE1, Array("http://ns.adobe.com/xap/1.0/\0<x:xmpmeta>GPSLatitude</x:xmpmeta>".utf8))
        let icc = segment(0xE2, Array("ICC_PROFILE\0\u{1}\u{1}fake profile".utf8))
        let comment = segment(0xFE, Array("taken at home".utf8))
        return Array(jpeg[0..<2]) + exif + xmp + icc + comment + Array(jpeg[2...])
    }

    static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        [0xFF, marker] + be16(payload.count + 2) + payload
    }

    static func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
    static func le32(_ value: Int) -> [UInt8] { le16(value & 0xFFFF) + le16(value >> 16 & 0xFFFF) }
    static func be16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
    static func be32(_ value: Int) -> [UInt8] { be16(value >> 16 & 0xFFFF) + be16(value & 0xFFFF) }

    /// Runs a tool from TEST_PACKAGES (zint, heif-enc); throws when it fails or is missing.
    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) throws -> String { try runToolOrThrow(tool, arguments) }

    /// A barcode image drawn by zint (PNG).
    static func zint(symbology: Int, data: String, scale: Int = 2, in folder: URL) throws -> [UInt8] {
        let file = folder.appendingPathComponent("zint-\(symbology)-\(UUID().uuidString).png")
        try run("zint", ["-b", "\(symbology)", "--scale=\(scale)", "-d", data, "-o", file.path])
        return try [UInt8](Data(contentsOf: file))
    }

    /// Is the colour close to `expected` (JPEG shifts colours a little)?
    static func isClose(_ color: Int, to expected: Int, tolerance: Int = 60) -> Bool {
        [16, 8, 0].allSatisfy { shift in abs((color >> shift & 0xFF) - (expected >> shift & 0xFF)) <= tolerance }
    }

    static func hex(_ color: Int) -> String { String(format: "#%06X", color) }
}

extension Array where Element == UInt8 {
    func contains(_ text: String) -> Bool {
        let needle = Array(text.utf8)
        guard !needle.isEmpty, needle.count <= count else { return false }
        for start in 0...(count - needle.count) where self[start] == needle[0] {
            if self[start..<start + needle.count].elementsEqual(needle) { return true }
        }
        return false
    }
}

/// A small deterministic random source (64-bit LCG), so generated fixtures never change.
struct SeededRandom {
    var state: UInt64

    mutating func next() -> UInt64 {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return state >> 33
    }

    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}

extension Fixtures {
    /// Gradient plus noise: photo-like content that does not compress to nothing.
    static func noisy(_ width: Int, _ height: Int, seed: UInt64 = 1) -> GDImage {
        var random = SeededRandom(state: seed)
        return canvas(width, height) { image in
            for y in 0..<height {
                for x in 0..<width {
                    let r = x * 255 / max(1, width - 1), g = y * 255 / max(1, height - 1)
                    let b = random.below(256)
                    gdImageSetPixel(image, Int32(x), Int32(y), Int32(r << 16 | g << 8 | b))
                }
            }
        }
    }
}
