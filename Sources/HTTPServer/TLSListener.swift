import Foundation

/// What makes a listener serve HTTPS: a certificate chain and its key, as PEM files. The files
/// are read again when they change (a renewed certificate needs no restart).
public struct TLSListener: Sendable {
    /// The server's certificate first, then the certificates that chain it to a trusted root.
    public var certificateFile: URL
    /// The private key of the first certificate (unencrypted PEM).
    public var keyFile: URL
    /// GnuTLS priorities: which protocol versions and ciphers a client may use.
    public var priorities: String

    public init(certificateFile: URL, keyFile: URL, priorities: String = TLSListener.strongPriorities) {
        self.certificateFile = certificateFile
        self.keyFile = keyFile
        self.priorities = priorities
    }

    /// TLS 1.2 and 1.3 only; AEAD ciphers only (AES-GCM, ChaCha20-Poly1305); forward-secret key
    /// exchange only (ECDHE); the server's order wins. What every phone of the last ten years speaks.
    /// X25519 first: browsers send an X25519 key share, and preferring P-256 (GnuTLS's default
    /// order) made every TLS 1.3 handshake take a HelloRetryRequest round trip.
    public static let strongPriorities =
        "SECURE128:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2"
        + ":-CIPHER-ALL:+AES-128-GCM:+AES-256-GCM:+CHACHA20-POLY1305"
        + ":-MAC-ALL:+AEAD:-KX-ALL:+ECDHE-ECDSA:+ECDHE-RSA"
        + ":-GROUP-ALL:+GROUP-X25519:+GROUP-SECP256R1:+GROUP-SECP384R1:%SERVER_PRECEDENCE"
}
