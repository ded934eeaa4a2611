import CZBar

public enum BarcodeReader {
    /// The photo is reduced to about this longest side for the first passes: phone photos are
    /// 3000–4000 px, and zbar is fast and reliable around 1000–1300.
    static let scanSide = 1280

    /// Every barcode found in a photo (same format detection and limits as photos), best first;
    /// [] when none.
    public static func decode(_ bytes: [UInt8], limits: ImageLimits = .standard) throws(ImagingError) -> [Barcode] {
        let header = try ImageHeader.read(bytes)
        try header.check(limits)
        guard let full = try GrayImage(GDImage.decode(bytes, header: header)) else { throw .damaged }
        // Reducing by whole blocks is a few times cheaper than libgd's resampling of a 12 MP image.
        let longest = max(full.width, full.height)
        let factor = (longest + scanSide - 1) / scanSide
        let gray = full.reduced(by: factor)
        // Cheapest first; stop at the first pass that finds anything.
        for pass in passes(gray) {
            let found = scan(pass())
            if !found.isEmpty { return found }
        }
        // Last: twice the detail (or, for a small picture, an enlargement), sharpened.
        let detailed = factor >= 2 ? full.reduced(by: factor / 2) : gray.enlarged()
        return scan(detailed.sharpened())
    }

    /// zbar scans rows and columns, so a quarter turn needs no pass of its own; a barcode lying
    /// diagonally does, and so does a soft one.
    private static func passes(_ gray: GrayImage) -> [() -> GrayImage] {
        [
            { gray },
            { gray.sharpened() },
            { gray.rotated(degrees: 45) },
            { gray.rotated(degrees: -45) },
        ]
    }

    static func scan(_ gray: GrayImage) -> [Barcode] {
        guard let scanner = zbar_image_scanner_create() else { return [] }
        defer { zbar_image_scanner_destroy(scanner) }
        configure(scanner)
        guard let image = zbar_image_create() else { return [] }
        defer { zbar_image_destroy(image) }
        zbar_image_set_format(image, fourCC("Y800"))
        zbar_image_set_size(image, UInt32(gray.width), UInt32(gray.height))

        var found: [(barcode: Barcode, quality: Int32)] = []
        gray.pixels.withUnsafeBytes { buffer in
            // No clean-up handler: the buffer belongs to Swift and outlives the scan.
            zbar_image_set_data(image, buffer.baseAddress, UInt(buffer.count), nil)
            guard zbar_scan_image(scanner, image) > 0 else { return }
            var symbol = zbar_image_first_symbol(image)
            while let current = symbol {
                if let barcode = barcode(current),
                    !found.contains(where: { $0.barcode == barcode })
                {
                    found.append((barcode, zbar_symbol_get_quality(current)))
                }
                symbol = zbar_symbol_next(current)
            }
            // The data pointer must not outlive this closure.
            zbar_image_set_data(image, nil, 0, nil)
        }
        return found.sorted { $0.quality > $1.quality }.map(\.barcode)
    }

    /// Only the symbologies a household meets; UPC-A enabled so it is reported as such
    /// (12 digits) instead of as an EAN-13 with a leading 0.
    private static func configure(_ scanner: OpaquePointer) {
        zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_ENABLE, 0)
        for symbology in [ZBAR_EAN13, ZBAR_EAN8, ZBAR_UPCA, ZBAR_UPCE, ZBAR_CODE128, ZBAR_QRCODE] {
            zbar_image_scanner_set_config(scanner, symbology, ZBAR_CFG_ENABLE, 1)
        }
    }

    private static func barcode(_ symbol: OpaquePointer) -> Barcode? {
        guard let data = zbar_symbol_get_data(symbol) else { return nil }
        let length = Int(zbar_symbol_get_data_length(symbol))
        let text = data.withMemoryRebound(to: UInt8.self, capacity: length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
        }
        let symbology: Symbology =
            switch zbar_symbol_get_type(symbol) {
            case ZBAR_EAN13: .ean13
            case ZBAR_EAN8: .ean8
            case ZBAR_UPCA: .upca
            case ZBAR_UPCE: .upce
            case ZBAR_CODE128: .code128
            case ZBAR_QRCODE: .qr
            default: .other
            }
        return Barcode(symbology: symbology, text: text)
    }

    private static func fourCC(_ code: String) -> UInt {
        code.utf8.reversed().reduce(0) { $0 << 8 | UInt($1) }
    }
}
