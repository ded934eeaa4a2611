import Foundation

/// GS1 trade item numbers: EAN-8, UPC-A (12), EAN-13, GTIN-14, and UPC-E.
public enum GTIN {
    /// Lengths whose last digit is a check digit. Other lengths (a shop's own code) are taken as typed.
    public static func hasCheckDigit(_ digits: String) -> Bool {
        [8, 12, 13, 14].contains(digits.utf8.count)
    }

    /// True for 8, 12, 13 or 14 digits whose check digit is right, and for UPC-E (8 digits
    /// starting 0/1, checked via its UPC-A expansion).
    public static func isValid(_ digits: String) -> Bool {
        guard let values = Self.digits(digits) else { return false }
        switch values.count {
        case 8: return hasValidCheckDigit(values) || upcE(expanding: values).map(hasValidCheckDigit) == true
        case 12, 13, 14: return hasValidCheckDigit(values)
        default: return false
        }
    }

    /// One spelling per product, so a barcode typed by a scanner and one read from a photo
    /// match: UPC-A and GTIN-14 with a leading 0 become EAN-13; UPC-E becomes the EAN-13 of its
    /// expansion when `symbology` says it is one (8 digits alone can be valid as both EAN-8
    /// and UPC-E). nil when the check digit is wrong.
    public static func normalized(_ digits: String, isUPCE: Bool = false) -> String? {
        guard let values = Self.digits(digits) else { return nil }
        var result = values
        if isUPCE {
            guard let expanded = upcE(expanding: values), hasValidCheckDigit(expanded) else { return nil }
            result = [0] + expanded
        } else {
            guard isValid(digits) else { return nil }
            if values.count == 8, !hasValidCheckDigit(values), let expanded = upcE(expanding: values) {
                // Only valid as UPC-E (as a scanner types it): the same EAN-13 a photo of it gives.
                result = [0] + expanded
            } else if values.count == 12 {
                result = [0] + values
            } else if values.count == 14, values[0] == 0 {
                result = Array(values.dropFirst())
            }
        }
        return result.map(String.init).joined()
    }

    /// The UPC-A (12 digits) a UPC-E code stands for; nil unless 8 digits with number system 0 or 1.
    static func upcE(expanding code: [Int]) -> [Int]? {
        guard code.count == 8, code[0] <= 1 else { return nil }
        let d = code // d[0] number system, d[1...6] the compressed body, d[7] check digit
        let body: [Int] =
            switch d[6] {
            case 0, 1, 2: [d[1], d[2], d[6], 0, 0, 0, 0, d[3], d[4], d[5]]
            case 3: [d[1], d[2], d[3], 0, 0, 0, 0, 0, d[4], d[5]]
            case 4: [d[1], d[2], d[3], d[4], 0, 0, 0, 0, 0, d[5]]
            default: [d[1], d[2], d[3], d[4], d[5], 0, 0, 0, 0, d[6]]
            }
        return [d[0]] + body + [d[7]]
    }

    /// GS1 mod 10: from the right (check digit excluded) weights 3, 1, 3, ...
    static func hasValidCheckDigit(_ values: [Int]) -> Bool {
        guard let check = values.last else { return false }
        var sum = 0
        for (position, value) in values.dropLast().reversed().enumerated() {
            sum += value * (position.isMultiple(of: 2) ? 3 : 1)
        }
        return (10 - sum % 10) % 10 == check
    }

    private static func digits(_ text: String) -> [Int]? {
        var values: [Int] = []
        for scalar in text.unicodeScalars {
            guard scalar.isASCII, let value = Int(String(scalar)), value >= 0 else { return nil }
            values.append(value)
        }
        return values
    }
}

/// A barcode field as a person or a USB scanner filled it in, read the one way every form reads it.
public enum TypedBarcode: Equatable, Sendable {
    case empty
    /// Spelled as stored: a GTIN in its one spelling, another code (a shop's own) as typed.
    case code(String)
    /// Not 6 to 14 digits.
    case notDigits
    /// Its length carries a check digit, and the check digit is wrong.
    case wrongCheckDigit

    /// What is wrong with the two that are refused.
    public var problem: FieldProblem? {
        switch self {
        case .empty, .code: nil
        case .notDigits: .barcodeInvalid
        case .wrongCheckDigit: .barcodeCheckDigit
        }
    }
}

extension GTIN {
    /// Reads a typed code: NFKC first (full-width digits and spaces from a Japanese input method
    /// are digits and spaces too), trimmed, then spelled as stored.
    public static func typed(_ text: String) -> TypedBarcode {
        let code = text.precomposedStringWithCompatibilityMapping.trimmingCharacters(in: .whitespaces)
        if code.isEmpty { return .empty }
        guard isProductNumber(code) else { return .notDigits }
        // A USB scanner never mistypes; a person copying digits by hand can.
        if hasCheckDigit(code), !isValid(code) { return .wrongCheckDigit }
        return .code(normalized(code) ?? code)
    }

    /// The product number in a code read from a photo, spelled as stored; nil when it is none
    /// (a QR code's web address, a label whose check digit is wrong). `isUPCE` is what the reader
    /// saw: 8 digits alone can be valid as both EAN-8 and UPC-E.
    public static func scanned(_ text: String, isUPCE: Bool) -> String? {
        guard isProductNumber(text) else { return nil }
        if isUPCE { return normalized(text, isUPCE: true) }
        if hasCheckDigit(text), !isValid(text) { return nil }
        return normalized(text) ?? text
    }

    /// 6 to 14 ASCII digits: what a barcode field keeps.
    static func isProductNumber(_ text: String) -> Bool {
        (6...14).contains(text.utf8.count) && text.utf8.allSatisfy { (0x30...0x39).contains($0) }
    }
}
