public enum Symbology: String, Sendable {
    case ean13, ean8, upca, upce, code128, qr, other
}

public struct Barcode: Sendable, Equatable {
    public let symbology: Symbology
    /// The digits of EAN/UPC codes as printed (UPC-A 12 digits, UPC-E 8), check digit
    /// included; the text of Code 128 and QR.
    public let text: String

    public init(symbology: Symbology, text: String) {
        self.symbology = symbology
        self.text = text
    }
}
