import CGnuTLS
import Foundation

/// Why the certificates could not be made or read, as one plain sentence.
public struct CertificateError: Error, CustomStringConvertible, Sendable, Equatable {
    public let description: String

    public init(_ description: String) { self.description = description }
}

/// Throws GnuTLS's own sentence for a negative result; `what` says what we were doing.
@discardableResult
func checked(_ result: Int32, _ what: String) throws -> Int32 {
    guard result < 0 else { return result }
    throw CertificateError("GnuTLS could not \(what): \(String(cString: gnutls_strerror(result))).")
}

/// Hands GnuTLS a view of `data` as a datum for the length of `body`.
func withDatum<T>(_ data: Data, _ body: (UnsafePointer<gnutls_datum_t>) throws -> T) rethrows -> T {
    var bytes = [UInt8](data)
    return try bytes.withUnsafeMutableBufferPointer { buffer in
        var datum = gnutls_datum_t(data: buffer.baseAddress, size: UInt32(buffer.count))
        return try body(&datum)
    }
}

/// What a GnuTLS export function writes: asked once with room for a typical certificate, again
/// with the size it says it needs. (The `*_export2` variants would need `gnutls_free`, a global
/// function pointer Swift 6 refuses to touch.)
func exported(_ what: String, _ call: (UnsafeMutableRawPointer, UnsafeMutablePointer<Int>) -> Int32) throws -> Data {
    var capacity = 4096
    while true {
        var buffer = [UInt8](repeating: 0, count: capacity)
        var size = capacity
        let result = buffer.withUnsafeMutableBytes { call($0.baseAddress!, &size) }
        if result == GNUTLS_E_SHORT_MEMORY_BUFFER && size > capacity {
            capacity = size
            continue
        }
        try checked(result, what)
        return Data(buffer.prefix(size))
    }
}

/// A short identifier or hash GnuTLS writes into a buffer we give it.
func filled(_ what: String, capacity: Int = 64, _ call: (UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<Int>) -> Int32) throws -> Data {
    var buffer = [UInt8](repeating: 0, count: capacity)
    var size = capacity
    try checked(buffer.withUnsafeMutableBufferPointer { call($0.baseAddress!, &size) }, what)
    return Data(buffer.prefix(size))
}
