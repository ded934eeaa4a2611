import CGD

/// A photo-like 4000×3000 JPEG (gradient, soft shapes, sensor-like noise) tagged with EXIF
/// orientation 6, as a phone held upright writes it. Deterministic.
enum SamplePhoto {
    static func make(width: Int = 4000, height: Int = 3000) -> [UInt8]? {
        guard let image = gdImageCreateTrueColor(Int32(width), Int32(height)) else { return nil }
        defer { gdImageDestroy(image) }
        var state: UInt64 = 12345
        guard let rows = image.pointee.tpixels else { return nil }
        for y in 0..<height {
            guard let row = rows[y] else { return nil }
            for x in 0..<width {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                let noise = Int(state >> 59) // 0...31
                let r = (x * 200 / width) + noise
                let g = (y * 180 / height) + noise
                let b = ((x + y) % 512 < 256 ? 60 : 140) + noise
                row[x] = Int32(r << 16 | g << 8 | b)
            }
        }
        for i in 0..<40 {
            let color = Int32((i * 53 % 256) << 16 | (i * 97 % 256) << 8 | (i * 151 % 256))
            gdImageFilledEllipse(image, Int32(i * 97 % width), Int32(i * 61 % height), 400, 300, color)
        }
        var size: Int32 = 0
        guard let data = gdImageJpegPtr(image, &size, 90) else { return nil }
        defer { gdFree(data) }
        let jpeg = Array(UnsafeRawBufferPointer(start: data, count: Int(size)))
        return Array(jpeg[0..<2]) + exifOrientationSegment(6) + Array(jpeg[2...])
    }

    /// APP1 "Exif" with a big-endian TIFF holding only the orientation tag.
    static func exifOrientationSegment(_ orientation: UInt8) -> [UInt8] {
        let tiff: [UInt8] =
            Array("MM".utf8) + [0, 42, 0, 0, 0, 8]
            + [0, 1] + [0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, orientation, 0, 0] + [0, 0, 0, 0]
        let payload = Array("Exif\0\0".utf8) + tiff
        let length = payload.count + 2
        return [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }
}
