import Foundation
import Testing

@testable import Imaging

/// A HEIF whose primary image is a grid: the decoder makes a canvas of the size in the grid's
/// data, whatever the `ispe` properties say, so that size must meet the limits before decoding.
@Suite struct HEIFGridTests {
    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        Fixtures.be32(8 + payload.count) + Array(type.utf8) + payload
    }

    static func fullBox(_ type: String, version: UInt8 = 0, flags: UInt8 = 0, _ payload: [UInt8]) -> [UInt8] {
        box(type, [version, 0, 0, flags] + payload)
    }

    /// A grid item (1) of one HEVC tile (2). The grid's data, in `idat`, declares `canvas`;
    /// every `ispe` says `ispe`. No coded data: only the header is read.
    /// `baseOffset`: an 8-byte `iloc` base offset (none when empty).
    static func grid(canvas: PixelSize, ispe: PixelSize, wide: Bool = false, baseOffset: [UInt8] = []) -> [UInt8] {
        let size = wide ? Fixtures.be32(canvas.width) + Fixtures.be32(canvas.height) : Fixtures.be16(canvas.width) + Fixtures.be16(canvas.height)
        let gridData: [UInt8] = [0, wide ? 1 : 0, 0, 0] + size
        let infe = { (id: Int, type: String) in fullBox("infe", version: 2, Fixtures.be16(id) + Fixtures.be16(0) + Array(type.utf8) + [0]) }
        // iloc version 1: 4-byte offsets and lengths, no base offset; item 1 in idat (method 1).
        let iloc = fullBox(
            "iloc", version: 1,
            [0x44, baseOffset.isEmpty ? 0x00 : 0x80] + Fixtures.be16(1) + Fixtures.be16(1) + Fixtures.be16(1) + Fixtures.be16(0) + baseOffset
                + Fixtures.be16(1) + Fixtures.be32(0) + Fixtures.be32(gridData.count))
        let ispeBox = fullBox("ispe", Fixtures.be32(ispe.width) + Fixtures.be32(ispe.height))
        let ipma = fullBox("ipma", Fixtures.be32(2) + Fixtures.be16(1) + [1, 0x81] + Fixtures.be16(2) + [1, 0x81])
        let meta = fullBox(
            "meta",
            fullBox("hdlr", Fixtures.be32(0) + Array("pict".utf8) + Array(repeating: 0, count: 13))
                + fullBox("pitm", Fixtures.be16(1))
                + fullBox("iinf", Fixtures.be16(2) + infe(1, "grid") + infe(2, "hvc1"))
                + iloc
                + box("idat", gridData)
                + fullBox("iref", box("dimg", Fixtures.be16(1) + Fixtures.be16(1) + Fixtures.be16(2)))
                + box("iprp", box("ipco", ispeBox) + ipma))
        return box("ftyp", Array("heic".utf8) + Fixtures.be32(0) + Array("mif1heic".utf8)) + meta
    }

    @Test(arguments: [false, true])
    func aGridLargerThanItsIspeIsRefusedBeforeDecoding(wide: Bool) throws {
        let bytes = Self.grid(canvas: PixelSize(width: 20_000, height: 20_000), ispe: PixelSize(width: 512, height: 512), wide: wide)
        #expect(ImageFormat.detect(bytes) == .heif)
        let header = try ImageHeader.read(bytes)
        #expect(header.stored == PixelSize(width: 20_000, height: 20_000))
        #expect(throws: ImagingError.tooLarge(PixelSize(width: 20_000, height: 20_000))) { try header.check(.standard) }
        #expect(SafetyTests.outcome(bytes) == .tooLarge(PixelSize(width: 20_000, height: 20_000)))
    }

    @Test func aGridWithinTheLimitsPassesTheHeaderCheck() throws {
        let header = try ImageHeader.read(Self.grid(canvas: PixelSize(width: 1024, height: 768), ispe: PixelSize(width: 1024, height: 768)))
        #expect(header.stored == PixelSize(width: 1024, height: 768))
        try header.check(.standard)
    }

    /// 64-bit sizes and offsets near Int.max once overflowed an addition and stopped the process.
    @Test func hugeSixtyFourBitSizesAndOffsetsAreDamagedNotATrap() throws {
        let huge: [UInt8] = [0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xF0]
        let ftyp = Self.box("ftyp", Array("heic".utf8) + Fixtures.be32(0) + Array("mif1heic".utf8))
        // A box whose 64-bit size runs to almost Int.max.
        let largeBox = ftyp + Fixtures.be32(1) + Array("meta".utf8) + huge + [UInt8](repeating: 0, count: 32)
        #expect(throws: ImagingError.self) { try ImageHeader.read(largeBox) }
        // A grid whose iloc base offset (8 bytes) is almost Int.max.
        let grid = Self.grid(canvas: PixelSize(width: 1024, height: 768), ispe: PixelSize(width: 1024, height: 768), baseOffset: huge)
        #expect(throws: ImagingError.self) { try ImageHeader.read(grid) }
    }
}
