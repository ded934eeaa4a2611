import Foundation
import TestSupport
import Testing

@testable import Imaging

/// Hostile and broken uploads: each is refused with the right error, nothing crashes.
@Suite struct SafetyTests {
    static func outcome(_ bytes: [UInt8], limits: ImageLimits = .standard) -> ImagingError? {
        do {
            _ = try PhotoNormalizer.normalize(bytes, limits: limits)
            return nil
        } catch {
            return error
        }
    }

    static func barcodeOutcome(_ bytes: [UInt8]) -> ImagingError? {
        do {
            _ = try BarcodeReader.decode(bytes)
            return nil
        } catch {
            return error
        }
    }

    @Test func emptyBytes() {
        #expect(Self.outcome([]) == .empty)
        #expect(Self.barcodeOutcome([]) == .empty)
        #expect(throws: ImagingError.empty) { try PhotoNormalizer.pixelSize([]) }
    }

    @Test(arguments: [
        "hello, I am definitely a JPEG\n",
        #"<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(document.cookie)</script><rect width="10" height="10"/></svg>"#,
        "<!DOCTYPE html><html><body><img src=x onerror=alert(1)><script>fetch('/')</script></body></html>",
        "GIF89a\u{1}\u{0}\u{1}\u{0}\u{80}\u{0}\u{0}", // a real format, but not one Zaiko accepts
        "RIFF\u{0}\u{0}\u{0}\u{0}WAVEfmt ", // RIFF, but audio
        "\u{0}\u{0}\u{0}\u{18}ftypisom\u{0}\u{0}\u{0}\u{0}isommp42", // ISO-BMFF, but a video
    ])
    func notAnImage(text: String) {
        let bytes = Array(text.utf8)
        #expect(ImageFormat.detect(bytes) == nil)
        #expect(Self.outcome(bytes) == .notAnImage)
        #expect(Self.barcodeOutcome(bytes) == .notAnImage)
    }

    @Test func truncatedFilesAreDamaged() throws {
        let image = Fixtures.noisy(400, 300)
        for (name, bytes) in [
            ("jpeg", Fixtures.encode(image, .jpeg(90))),
            ("png", Fixtures.encode(image, .png)),
            ("webp", Fixtures.encode(image, .webp)),
        ] {
            // The header survives, so the size is known; the pixels are cut off.
            let truncated = Array(bytes.prefix(bytes.count * 6 / 10))
            #expect(try PhotoNormalizer.pixelSize(truncated) == PixelSize(width: 400, height: 300), "\(name)")
            #expect(Self.outcome(truncated) == .damaged, "\(name)")
            #expect(Self.barcodeOutcome(truncated) == .damaged, "\(name)")
        }
    }

    @Test func headersWithoutPicturesAreDamaged() {
        let jpegWithoutFrame: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x04, 0x00, 0x00, 0xFF, 0xD9]
        let pngWithoutHeader: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array("garbage!garbage!".utf8)
        let heifWithoutMeta: [UInt8] = Fixtures.be32(16) + Array("ftypheic".utf8) + Fixtures.be32(0) + Array(repeating: 0, count: 32)
        for bytes in [jpegWithoutFrame, pngWithoutHeader, heifWithoutMeta] {
            #expect(Self.outcome(bytes) == .damaged)
        }
    }

    /// 20000×20000: a few bytes on disk, 1.6 GB once decoded.
    static let pixelBombPNG: [UInt8] = {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let ihdr = Fixtures.be32(20_000) + Fixtures.be32(20_000) + [8, 2, 0, 0, 0]
        bytes += Fixtures.be32(ihdr.count) + Array("IHDR".utf8) + ihdr + Fixtures.be32(0)
        // A deflate stream of zeros would follow; refusal must come before it is read.
        bytes += Fixtures.be32(2) + Array("IDAT".utf8) + [0x78, 0x9C] + Fixtures.be32(0)
        return bytes
    }()

    @Test func pixelBombIsRefusedBeforeDecoding() {
        // Had it been decoded, the broken IDAT would say .damaged (or memory would run out).
        #expect(Self.outcome(Self.pixelBombPNG) == .tooLarge(PixelSize(width: 20_000, height: 20_000)))
        #expect(Self.barcodeOutcome(Self.pixelBombPNG) == .tooLarge(PixelSize(width: 20_000, height: 20_000)))
    }

    @Test func hugeDeclaredSizesInEveryFormat() {
        // JPEG: SOF0 declaring 65000×65000.
        let jpeg: [UInt8] =
            [0xFF, 0xD8] + Fixtures.segment(0xC0, [8] + Fixtures.be16(65_000) + Fixtures.be16(65_000) + [1, 1, 0x11, 0])
            + Fixtures.segment(0xDA, [1, 1, 0, 0, 63, 0]) + [0, 0, 0xFF, 0xD9]
        // WebP: extended header declaring a 16384×16384 canvas.
        let vp8x: [UInt8] = [0, 0, 0, 0] + [0xFF, 0x3F, 0x00] + [0xFF, 0x3F, 0x00]
        let webp: [UInt8] = Array("RIFF".utf8) + Fixtures.le32(4 + 8 + vp8x.count) + Array("WEBPVP8X".utf8) + Fixtures.le32(vp8x.count) + vp8x
        #expect(Self.outcome(jpeg) == .tooLarge(PixelSize(width: 65_000, height: 65_000)))
        #expect(Self.outcome(webp) == .tooLarge(PixelSize(width: 16_384, height: 16_384)))
    }

    @Test func limitsAreTheCallers() throws {
        let png = Fixtures.encode(Fixtures.noisy(300, 40), .png)
        #expect(Self.outcome(png, limits: ImageLimits(maxPixels: 10_000, maxSide: 12_000)) == .tooLarge(PixelSize(width: 300, height: 40)))
        #expect(Self.outcome(png, limits: ImageLimits(maxPixels: 1_000_000, maxSide: 299)) == .tooLarge(PixelSize(width: 300, height: 40)))
        #expect(Self.outcome(png, limits: ImageLimits(maxPixels: 12_000, maxSide: 300)) == nil)
    }

    @Test func heifSizeCapUsesTheHeader() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let png = folder.appendingPathComponent("in.png"), heic = folder.appendingPathComponent("out.heic")
        try Data(Fixtures.encode(Fixtures.noisy(320, 240), .png)).write(to: png)
        try Fixtures.run("heif-enc", [png.path, "-o", heic.path])
        let bytes = try [UInt8](Data(contentsOf: heic))
        #expect(Self.outcome(bytes, limits: ImageLimits(maxPixels: 320 * 240 - 1, maxSide: 1000)) == .tooLarge(PixelSize(width: 320, height: 240)))
        #expect(Self.outcome(Array(bytes.prefix(bytes.count / 2))) == .damaged)
    }

    /// Random bytes flipped in valid files: every outcome is a photo or an ImagingError, never a crash.
    /// (Hundreds of decodes: on a thread of their own, so the cooperative pool stays free for the
    /// tests that wait on tasks.)
    @Test func corruptedFilesNeverCrash() async throws {
        let image = Fixtures.noisy(120, 90, seed: 7)
        let sources = [Fixtures.encode(image, .jpeg(85)), Fixtures.encode(image, .png), Fixtures.encode(image, .webp)]
        try await offThePool {
            var random = SeededRandom(state: 42)
            for source in sources {
                for _ in 0..<150 {
                    var bytes = source
                    for _ in 0..<(1 + random.below(8)) {
                        bytes[random.below(bytes.count)] = UInt8(random.below(256))
                    }
                    _ = Self.outcome(bytes)
                }
            }
        }
    }

    /// The same for HEIC, whose parser (libheif) is the largest attack surface here.
    @Test func corruptedHEICNeverCrashes() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let png = folder.appendingPathComponent("in.png"), heic = folder.appendingPathComponent("out.heic")
        try Data(Fixtures.encode(Fixtures.noisy(96, 64, seed: 9), .png)).write(to: png)
        try Fixtures.run("heif-enc", [png.path, "-o", heic.path])
        let source = try [UInt8](Data(contentsOf: heic))
        try await offThePool {
            var random = SeededRandom(state: 99)
            for _ in 0..<150 {
                var bytes = source
                for _ in 0..<(1 + random.below(8)) {
                    bytes[random.below(bytes.count)] = UInt8(random.below(256))
                }
                _ = Self.outcome(bytes)
            }
        }
    }

    @Test func concurrentBarcodeReadsAgree() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let qr = try Fixtures.zint(symbology: 58, data: "zaiko", in: folder)
        // On threads of their own: sixteen decodes in a task group would hold every cooperative thread.
        let results = try await concurrently(16) { try? BarcodeReader.decode(qr) }
        #expect(results.count == 16)
        #expect(results.allSatisfy { $0 == [Barcode(symbology: .qr, text: "zaiko")] })
    }
}
