public enum Symbology: String, Sendable {
    case ean13, ean8, upca, upce, code128, qr, other
}

public struct Barcode: Sendable, Equatable {
    public let symbology: Symbology
    public let text: String

    public init(symbology: Symbology, text: String) {
        self.symbology = symbology
        self.text = text
    }
}

public enum BarcodeReader {
    /// Every barcode found in a photo (same format detection and limits as photos), best first;
    /// [] when none.
    public static func decode(_ bytes: [UInt8], limits: ImageLimits = .standard) throws(ImagingError) -> [Barcode] {
        []
    }
}
