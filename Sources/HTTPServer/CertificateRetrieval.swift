import CGnuTLS
import Foundation
import Synchronization

/// Which certificate each TLS listener presents, by the local port its connections arrive on.
/// GnuTLS's certificate callback gets no context pointer of ours, only the session, whose
/// transport is the connection's socket (libmicrohttpd 0.9.75 sets it with
/// `gnutls_transport_set_int`): the socket's local port finds the listener.
enum CertificateRetrieval {
    private static let listeners = Mutex<[UInt16: ReloadingCertificate]>([:])

    static func register(_ certificate: ReloadingCertificate, port: UInt16) {
        listeners.withLock { $0[port] = certificate }
    }

    /// Only if still this listener's: once the port is closed another server may have taken it.
    static func unregister(_ certificate: ReloadingCertificate, port: UInt16) {
        listeners.withLock { if $0[port] === certificate { $0.removeValue(forKey: port) } }
    }

    static func certificate(forSocket socket: Int32) -> ReloadingCertificate? {
        var address = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let found = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        guard found == 0 else { return nil }
        let port: UInt16
        switch Int32(address.ss_family) {
        case AF_INET:
            port = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) } }
        case AF_INET6:
            port = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) } }
        default:
            return nil
        }
        return listeners.withLock { $0[port] }
    }

    /// `gnutls_certificate_retrieve_function2`, given to libmicrohttpd as
    /// `MHD_OPTION_HTTPS_CERT_CALLBACK`: called on a worker thread at each full handshake.
    static let callback:
        @convention(c) (
            gnutls_session_t?, UnsafePointer<gnutls_datum_t>?, Int32, UnsafePointer<gnutls_pk_algorithm_t>?, Int32,
            UnsafeMutablePointer<UnsafeMutablePointer<gnutls_pcert_st>?>?, UnsafeMutablePointer<UInt32>?,
            UnsafeMutablePointer<gnutls_privkey_t?>?
        ) -> Int32 = { session, _, _, _, _, chain, chainLength, key in
            guard let session, let chain, let chainLength, let key,
                let certificate = CertificateRetrieval.certificate(forSocket: gnutls_transport_get_int(session))
            else { return -1 }
            let pair = certificate.current()
            chain.pointee = pair.chain
            chainLength.pointee = pair.chainLength
            key.pointee = pair.key
            return 0
        }
}
