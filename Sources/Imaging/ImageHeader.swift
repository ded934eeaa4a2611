/// What a picture's header says, read without decoding any pixels.
struct ImageHeader: Sendable {
    var format: ImageFormat
    /// Width and height of the stored pixels (before orientation).
    var stored: PixelSize
    /// The largest size any image in the file declares (HEIF holds thumbnails and tiles too);
    /// the limits are checked against this.
    var largest: PixelSize
    /// How the stored pixels are turned for display.
    var orientation: Orientation
    /// Whether the decoder already turns the pixels (libheif applies irot/imir itself).
    var decoderApplies: Bool = false
    var heifBrand: HEIFBrand? = nil
    /// JPEG only: where the first scan's entropy-coded data starts.
    var jpegScanOffset: Int? = nil

    var displayed: PixelSize { orientation.displayedSize(of: stored) }

    /// The orientation still to apply after decoding.
    var orientationToApply: Orientation { decoderApplies ? .up : orientation }

    static func read(_ bytes: [UInt8]) throws(ImagingError) -> ImageHeader {
        guard !bytes.isEmpty else { throw .empty }
        guard let format = ImageFormat.detect(bytes) else { throw .notAnImage }
        let reader = ByteReader(bytes: bytes)
        let header: ImageHeader? =
            switch format {
            case .jpeg: JPEGHeader.read(reader)
            case .png: pngHeader(reader)
            case .webp: webpHeader(reader)
            case .heif: HEIFHeader.read(reader)
            }
        guard let header, header.stored.width > 0, header.stored.height > 0 else { throw .damaged }
        return header
    }

    func check(_ limits: ImageLimits) throws(ImagingError) {
        guard limits.admits(largest), limits.admits(stored) else { throw .tooLarge(displayed) }
    }

    private static func pngHeader(_ reader: ByteReader) -> ImageHeader? {
        // The first chunk must be IHDR: width and height as 32-bit big-endian.
        guard reader.matches("IHDR", at: 12),
            let width = reader.u32be(16), let height = reader.u32be(20)
        else { return nil }
        let size = PixelSize(width: width, height: height)
        return ImageHeader(format: .png, stored: size, largest: size, orientation: .up)
    }

    private static func webpHeader(_ reader: ByteReader) -> ImageHeader? {
        let data = 20
        var size: PixelSize?
        switch reader.fourCC(12) {
        case "VP8 ":
            // Lossy: a key frame starts with the start code 9d 01 2a, then 14-bit sizes.
            guard reader.u8(data + 3) == 0x9D, reader.u8(data + 4) == 0x01, reader.u8(data + 5) == 0x2A,
                let w = reader.u16le(data + 6), let h = reader.u16le(data + 8)
            else { return nil }
            size = PixelSize(width: w & 0x3FFF, height: h & 0x3FFF)
        case "VP8L":
            // Lossless: signature 0x2f, then width-1 and height-1 as 14-bit fields.
            guard reader.u8(data) == 0x2F, let bits = reader.u32le(data + 1) else { return nil }
            size = PixelSize(width: (bits & 0x3FFF) + 1, height: ((bits >> 14) & 0x3FFF) + 1)
        case "VP8X":
            // Extended: canvas width-1 and height-1 as 24-bit fields.
            guard let w = reader.u24le(data + 4), let h = reader.u24le(data + 7) else { return nil }
            size = PixelSize(width: w + 1, height: h + 1)
        default:
            return nil
        }
        guard let size else { return nil }
        return ImageHeader(format: .webp, stored: size, largest: size, orientation: .up)
    }
}
