/// The frame size and EXIF orientation of a JPEG, from its marker segments.
enum JPEGHeader {
    static func read(_ reader: ByteReader) -> ImageHeader? {
        var offset = 2
        var size: PixelSize?
        var orientation = Orientation.up
        var sawExif = false
        var scanOffset: Int?
        while offset < reader.bytes.count {
            guard reader.u8(offset) == 0xFF else { return nil }
            // Any number of 0xFF fill bytes may precede a marker.
            while reader.u8(offset) == 0xFF { offset += 1 }
            guard let marker = reader.u8(offset) else { return nil }
            offset += 1
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { continue } // no length
            if marker == 0xD9 { break }
            guard let length = reader.u16be(offset), length >= 2 else { return nil }
            let body = offset + 2
            if marker == 0xDA {
                // The scan starts: the headers are over.
                scanOffset = body + length - 2
                break
            }
            if isStartOfFrame(marker) {
                guard let height = reader.u16be(body + 1), let width = reader.u16be(body + 3) else { return nil }
                size = PixelSize(width: width, height: height)
            } else if marker == 0xE1, !sawExif, reader.matches("Exif\0\0", at: body) {
                sawExif = true
                orientation = exifOrientation(reader, tiff: body + 6, end: body + length - 2) ?? .up
            }
            offset = body + length - 2
        }
        guard let size else { return nil }
        return ImageHeader(
            format: .jpeg, stored: size, largest: size, orientation: orientation, jpegScanOffset: scanOffset
        )
    }

    /// SOF0–SOF15, except DHT (C4), JPG (C8) and DAC (CC), which share the range.
    private static func isStartOfFrame(_ marker: Int) -> Bool {
        (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker)
    }

    /// Tag 0x0112 of IFD0 in the TIFF structure of an Exif segment.
    static func exifOrientation(_ reader: ByteReader, tiff: Int, end: Int) -> Orientation? {
        let bigEndian: Bool
        if reader.matches("MM", at: tiff) { bigEndian = true } else if reader.matches("II", at: tiff) { bigEndian = false } else { return nil }
        guard reader.u16(tiff + 2, bigEndian: bigEndian) == 42,
            let ifd = reader.u32(tiff + 4, bigEndian: bigEndian),
            let count = reader.u16(tiff + ifd, bigEndian: bigEndian)
        else { return nil }
        for index in 0..<count {
            let entry = tiff + ifd + 2 + index * 12
            guard entry + 12 <= end, let tag = reader.u16(entry, bigEndian: bigEndian) else { return nil }
            guard tag == 0x0112 else { continue }
            guard reader.u16(entry + 2, bigEndian: bigEndian) == 3, // SHORT
                let value = reader.u16(entry + 8, bigEndian: bigEndian)
            else { return nil }
            return Orientation(rawValue: value)
        }
        return nil
    }
}
