import Inventory

/// The first-run code: 12 letters and digits without look-alikes (0/O, 1/I/L), in groups of four.
enum SetupCode {
    static let alphabet = Array("ABCDEFGHJKMNPQRSTUVWXYZ23456789")

    static func make() -> String {
        let letters = Crypto.randomBytes(12).map { alphabet[Int($0) % alphabet.count] }
        return stride(from: 0, to: 12, by: 4).map { String(letters[$0..<$0 + 4]) }.joined(separator: "-")
    }
}
