import CGD

/// Set once, before the first decode: libgd's messages are dropped instead of printed.
private let gdSilenced: Void = zaiko_gd_silence_errors()

/// One libgd image, owned: destroyed with this object. Not shared between threads.
final class GDImage {
    let pointer: gdImagePtr

    init(taking pointer: gdImagePtr) {
        self.pointer = pointer
    }

    /// A true-colour canvas filled with opaque white.
    convenience init?(width: Int, height: Int) {
        guard let created = gdImageCreateTrueColor(Int32(width), Int32(height)) else { return nil }
        self.init(taking: created)
        gdImageFilledRectangle(pointer, 0, 0, Int32(width - 1), Int32(height - 1), 0xFFFFFF)
    }

    deinit { gdImageDestroy(pointer) }

    var width: Int { Int(pointer.pointee.sx) }
    var height: Int { Int(pointer.pointee.sy) }
    var size: PixelSize { PixelSize(width: width, height: height) }

    /// Decodes bytes whose header has been read and checked against the limits.
    static func decode(_ bytes: [UInt8], header: ImageHeader) throws(ImagingError) -> GDImage {
        _ = gdSilenced
        let decoded: gdImagePtr? = bytes.withUnsafeBytes { buffer in
            // libgd takes a non-const pointer but only reads from it.
            guard let data = UnsafeMutableRawPointer(mutating: buffer.baseAddress) else { return nil }
            let count = Int32(clamping: buffer.count)
            switch header.format {
            case .jpeg:
                // libjpeg fills a truncated scan with grey and only warns (libgd's "ignore
                // warning" flag merely stops the printing), so completeness is checked first.
                guard let scan = header.jpegScanOffset, JPEGStructure.hasEndOfImage(bytes, after: scan) else {
                    return nil
                }
                return gdImageCreateFromJpegPtrEx(count, data, 1)
            case .png:
                return gdImageCreateFromPngPtr(count, data)
            case .webp:
                return gdImageCreateFromWebpPtr(count, data)
            case .heif:
                return header.heifBrand == .av1
                    ? gdImageCreateFromAvifPtr(count, data) : gdImageCreateFromHeifPtr(count, data)
            }
        }
        guard let decoded else { throw .damaged }
        let image = GDImage(taking: decoded)
        // Palette PNGs: one pixel layout for everything downstream.
        if decoded.pointee.trueColor == 0, gdImagePaletteToTrueColor(decoded) == 0 { throw .damaged }
        // Never more pixels than the header declared (and the limits admitted); fewer is fine
        // (HEIF's clean aperture crops).
        let declared = header.largest
        guard image.size.pixelCount <= declared.pixelCount,
            max(image.width, image.height) <= max(declared.width, declared.height)
        else { throw .damaged }
        return image
    }

    /// A `side`×`side` copy of the square at (x, y) with side `sourceSide`, averaged down
    /// (libgd's resampling is an area average: no aliasing however large the reduction).
    /// Transparent pixels end up on white.
    func resampledSquare(x: Int, y: Int, sourceSide: Int, side: Int) -> GDImage? {
        guard let target = GDImage(width: side, height: side) else { return nil }
        // Blending onto the white canvas flattens any alpha the source has.
        gdImageAlphaBlending(target.pointer, 1)
        gdImageCopyResampled(
            target.pointer, pointer, 0, 0, Int32(x), Int32(y),
            Int32(side), Int32(side), Int32(sourceSide), Int32(sourceSide)
        )
        return target
    }

    /// This (true-colour) image turned for display.
    func oriented(_ orientation: Orientation) -> GDImage? {
        guard orientation != .up else { return self }
        let shown = orientation.displayedSize(of: size)
        guard pointer.pointee.trueColor != 0,
            let target = GDImage(width: shown.width, height: shown.height),
            let source = pointer.pointee.tpixels, let destination = target.pointer.pointee.tpixels
        else { return nil }
        for y in 0..<shown.height {
            guard let row = destination[y] else { return nil }
            for x in 0..<shown.width {
                let from = orientation.storedPoint(x: x, y: y, stored: size)
                row[x] = source[from.y]?[from.x] ?? 0
            }
        }
        return target
    }

    /// The pixel at (x, y) as 0xRRGGBB (alpha dropped); true-colour images only.
    func rgb(x: Int, y: Int) -> Int {
        Int(gdImageGetTrueColorPixel(pointer, Int32(x), Int32(y))) & 0xFFFFFF
    }

    /// Encodes as JPEG or WebP; nil when libgd fails.
    func encoded(_ encoding: PhotoEncoding) -> [UInt8]? {
        var size: Int32 = 0
        let data: UnsafeMutableRawPointer? =
            switch encoding {
            case .jpeg(let quality): gdImageJpegPtr(pointer, &size, Int32(quality))
            case .webp(let quality): gdImageWebpPtrEx(pointer, &size, Int32(quality))
            }
        guard let data else { return nil }
        defer { gdFree(data) }
        let bytes = Array(UnsafeRawBufferPointer(start: data, count: Int(size)))
        switch encoding {
        case .jpeg: return JPEGStructure.withoutMetadata(bytes)
        case .webp: return bytes
        }
    }
}
