/// GS1 trade item numbers: EAN-8, UPC-A (12), EAN-13, GTIN-14, and UPC-E.
public enum GTIN {
    /// True for 8, 12, 13 or 14 digits whose check digit is right, and for UPC-E (8 digits
    /// starting 0/1, checked via its UPC-A expansion).
    public static func isValid(_ digits: String) -> Bool {
        false
    }
}
