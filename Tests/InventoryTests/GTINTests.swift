import Testing

@testable import Inventory

@Suite struct GTINTests {
    @Test(arguments: [
        "96385074", // EAN-8
        "036000291452", // UPC-A
        "4006381333931", // EAN-13
        "4901234567894", // EAN-13 (Japan)
        "10012345678902", // GTIN-14
        "01234565", // UPC-E (expands to 012345000065)
        "00000000", // all zeros: check digit 0 is right
    ])
    func valid(_ digits: String) {
        #expect(GTIN.isValid(digits))
    }

    @Test(arguments: [
        "96385075", "036000291453", "4006381333932", "10012345678903",
        "01234566", // UPC-E with a wrong check digit (and not a valid EAN-8)
        "", "123", "4006381333931 ", "400638133393a", "４００６３８１３３３９３１", "-4006381333931",
        "12345678901", // 11 digits
        "123456789012345", // 15 digits
    ])
    func invalid(_ digits: String) {
        #expect(!GTIN.isValid(digits))
    }

    @Test func upcEExpansion() {
        // One example per last-digit rule.
        let cases: [(String, String)] = [
            ("01234565", "012345000065"), // 5–9: manufacturer 5 digits
            ("04252614", "042100005264"), // 0–2
            ("01234531", "012300000451"), // 3
            ("01234543", "012340000053"), // 4
        ]
        for (upcE, upcA) in cases {
            let digits = upcE.compactMap(\.wholeNumberValue)
            #expect(GTIN.upcE(expanding: digits)?.map(String.init).joined() == upcA, "\(upcE)")
            #expect(GTIN.isValid(upcA), "\(upcA)")
        }
    }

    @Test func normalizedSpellsEachProductOnce() {
        #expect(GTIN.normalized("036000291452") == "0036000291452")
        #expect(GTIN.normalized("0036000291452") == "0036000291452")
        #expect(GTIN.normalized("00036000291452") == "0036000291452")
        // 8 digits may be EAN-8 or UPC-E (01234565 is valid as both): only the reader knows.
        #expect(GTIN.normalized("01234565") == "01234565")
        #expect(GTIN.normalized("01234565", isUPCE: true) == "0012345000065")
        #expect(GTIN.normalized("01234566", isUPCE: true) == nil)
        #expect(GTIN.normalized("96385074") == "96385074")
        // Valid only as UPC-E: typed by a scanner it is stored as the photo's reading is.
        #expect(GTIN.normalized("06543217") == "0065100004327")
        #expect(GTIN.normalized("06543217") == GTIN.normalized("06543217", isUPCE: true))
        #expect(GTIN.normalized("4006381333932") == nil)
    }
}
