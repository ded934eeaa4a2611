/// Check digits of retail barcodes (EAN-8, UPC-A, EAN-13, GTIN-14, and UPC-E through its UPC-A form).
public enum GTIN {
    /// Lengths whose last digit is a check digit. Other lengths (a shop's own code) are taken as typed.
    public static func hasCheckDigit(_ digits: String) -> Bool {
        [8, 12, 13, 14].contains(digits.utf8.count)
    }

    /// True when every character is a digit and the check digit is right. 8 digits pass as EAN-8
    /// or, starting with 0 or 1, as UPC-E.
    public static func isValid(_ digits: String) -> Bool {
        let values = digits.utf8.map { Int($0) - 48 }
        guard hasCheckDigit(digits), values.allSatisfy({ (0...9).contains($0) }) else { return false }
        if sumChecks(values) { return true }
        if values.count == 8, values[0] <= 1, let upcA = expandUPCE(values) { return sumChecks(upcA) }
        return false
    }

    /// Weights 3 and 1 from the right, the check digit included: the sum is a multiple of 10.
    static func sumChecks(_ values: [Int]) -> Bool {
        var sum = 0
        for (offset, value) in values.reversed().enumerated() { sum += offset % 2 == 1 ? value * 3 : value }
        return sum % 10 == 0
    }

    /// UPC-E (number system, six digits, check) as its 12-digit UPC-A.
    static func expandUPCE(_ e: [Int]) -> [Int]? {
        guard e.count == 8 else { return nil }
        let d = Array(e[1...6])
        let body: [Int]
        switch d[5] {
        case 0, 1, 2: body = [d[0], d[1], d[5], 0, 0, 0, 0, d[2], d[3], d[4]]
        case 3: body = [d[0], d[1], d[2], 0, 0, 0, 0, 0, d[3], d[4]]
        case 4: body = [d[0], d[1], d[2], d[3], 0, 0, 0, 0, 0, d[4]]
        default: body = [d[0], d[1], d[2], d[3], d[4], 0, 0, 0, 0, d[5]]
        }
        return [e[0]] + body + [e[7]]
    }
}
