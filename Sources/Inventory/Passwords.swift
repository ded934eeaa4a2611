import CSodium
import Foundation

/// Hashes and checks passwords. A protocol so tests can count hash computations and use
/// cheaper parameters; production uses `Argon2id.standard`.
public protocol PasswordHashing: Sendable {
    func hash(_ password: String) throws -> String
    func verify(_ password: String, against hash: String) -> Bool
    /// True when `hash` was made with other parameters than the current ones.
    func needsRehash(_ hash: String) -> Bool
}

/// argon2id through libsodium's `crypto_pwhash_str`.
public struct Argon2id: PasswordHashing {
    public let opsLimit: UInt64
    public let memLimit: Int

    /// 2 passes over 64 MiB: libsodium's "interactive" level, within OWASP's advice.
    public static let standard = Argon2id(opsLimit: UInt64(crypto_pwhash_opslimit_interactive()), memLimit: crypto_pwhash_memlimit_interactive())

    public init(opsLimit: UInt64, memLimit: Int) {
        _ = sodium_init()
        self.opsLimit = opsLimit
        self.memLimit = memLimit
    }

    public func hash(_ password: String) throws -> String {
        var output = [CChar](repeating: 0, count: Int(crypto_pwhash_STRBYTES))
        let bytes = Array(password.utf8CString.dropLast())
        guard crypto_pwhash_str(&output, bytes, UInt64(bytes.count), opsLimit, memLimit) == 0 else {
            throw InventoryError.validation(["password": .passwordHashFailed])
        }
        return output.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    public func verify(_ password: String, against hash: String) -> Bool {
        let bytes = Array(password.utf8CString.dropLast())
        return crypto_pwhash_str_verify(hash, bytes, UInt64(bytes.count)) == 0
    }

    public func needsRehash(_ hash: String) -> Bool {
        crypto_pwhash_str_needs_rehash(hash, opsLimit, memLimit) != 0
    }
}

/// The rules a new password must meet; each failure is a problem of the `password` field.
public enum PasswordPolicy {
    public static let minimumCharacters = 8
    public static let maximumBytes = 1024

    public static func problem(with password: String) -> FieldProblem? {
        if password.count < minimumCharacters { return .passwordTooShort }
        if password.utf8.count > maximumBytes { return .passwordTooLong }
        if commonPasswords.contains(password.lowercased()) { return .passwordTooCommon }
        return nil
    }

    /// The most used passwords of 8 characters or more, from public breach statistics.
    static let commonPasswords: Set<String> = [
        "12345678", "123456789", "1234567890", "12345678910", "password", "password1", "password12",
        "password123", "passw0rd", "p@ssw0rd", "p@ssword", "qwertyuiop", "qwerty123", "qwerty12",
        "1q2w3e4r", "1q2w3e4r5t", "1qaz2wsx", "zaq12wsx", "qazwsxedc", "qazwsx123", "asdfghjkl",
        "asdfasdf", "iloveyou", "iloveyou1", "11111111", "111111111", "1111111111", "00000000",
        "000000000", "0000000000", "88888888", "87654321", "12341234", "11223344", "12344321",
        "123123123", "123321123", "987654321", "9876543210", "abcd1234", "abc12345", "abc123456",
        "a1b2c3d4", "aaaaaaaa", "abcdefgh", "sunshine", "princess", "football", "baseball",
        "basketball", "superman", "batman123", "starwars", "whatever", "trustno1", "letmein1",
        "letmeinplease", "welcome1", "welcome123", "computer", "internet", "jennifer", "michael1",
        "charlie1", "shadow12", "monkey123", "dragon123", "master123", "freedom1", "changeme",
        "changeme1", "secret123", "admin123", "administrator", "adminadmin", "rootroot",
        "zaq1zaq1", "q1w2e3r4", "q1w2e3r4t5", "1234qwer", "qwer1234", "asdf1234", "zxcvbnm1",
        "zxcvbnm123", "12qwaszx", "55555555", "66666666", "77777777", "99999999", "12121212",
        "123abc123", "pokemon1", "minecraft", "lovelove", "loveyou1", "zaiko123", "zaikozaiko",
        "household", "inventory", "kitchen1", "password!", "password1!", "qwertyui", "asdfghjk",
    ]
}
