import CGnuTLS
import Foundation

/// An X.509 Name Constraints extension (RFC 5280 4.2.1.10) through GnuTLS: the DNS names and IP
/// ranges an authority may sign for. Zaiko's own authority carries one, critical, so a device that
/// trusts it trusts nothing it signs for a site outside the home network (a bank, example.com).
final class NameConstraints {
    let constraints: gnutls_x509_name_constraints_t

    init() throws {
        var constraints: gnutls_x509_name_constraints_t?
        try checked(gnutls_x509_name_constraints_init(&constraints), "prepare name constraints")
        self.constraints = constraints!
    }

    deinit { gnutls_x509_name_constraints_deinit(constraints) }

    /// `name` and every name below it (`local` permits `zaiko.local`).
    func permit(name: String) throws {
        _ = try withDatum(Data(name.utf8)) {
            try checked(gnutls_x509_name_constraints_add_permitted(constraints, GNUTLS_SAN_DNSNAME, $0), "permit the name \(name)")
        }
    }

    /// The addresses of `network` ("10.0.0.0/8", "fe80::/10").
    func permit(network: String) throws {
        let parts = network.split(separator: "/")
        guard parts.count == 2, let address = SubjectNames.bytes(ofAddress: String(parts[0])), let bits = Int(parts[1]), bits <= address.count * 8
        else { throw CertificateError("\(network) is not a network.") }
        let mask = (0..<address.count).map { index -> UInt8 in
            let left = max(0, min(8, bits - index * 8))
            return left == 0 ? 0 : UInt8(truncatingIfNeeded: 0xFF << (8 - left))
        }
        _ = try withDatum(address + Data(mask)) {
            try checked(gnutls_x509_name_constraints_add_permitted(constraints, GNUTLS_SAN_IPADDRESS, $0), "permit the network \(network)")
        }
    }

    func permits(name: String) -> Bool {
        withDatum(Data(name.utf8)) { gnutls_x509_name_constraints_check(constraints, GNUTLS_SAN_DNSNAME, $0) != 0 }
    }

    func permits(address: String) -> Bool {
        guard let bytes = SubjectNames.bytes(ofAddress: address) else { return false }
        return withDatum(bytes) { gnutls_x509_name_constraints_check(constraints, GNUTLS_SAN_IPADDRESS, $0) != 0 }
    }

    /// The names and addresses of `names` these constraints permit.
    func permitted(_ names: SubjectNames) throws -> SubjectNames {
        try SubjectNames(names: names.names.filter(permits(name:)), addresses: names.addresses.filter(permits(address:)))
    }

    /// The home network: the machine's own names, `.local` (mDNS), `localhost`, and the private,
    /// loopback and link-local address ranges of IPv4 and IPv6.
    static func homeNetwork(machineNames: [String]) throws -> NameConstraints {
        let constraints = try NameConstraints()
        var names: [String] = []
        for name in machineNames.map({ $0.lowercased() }) + ["local", "localhost"]
        where !name.isEmpty && SubjectNames.bytes(ofAddress: name) == nil && !names.contains(name) {
            names.append(name)
        }
        for name in names { try constraints.permit(name: name) }
        for network in privateNetworks { try constraints.permit(network: network) }
        return constraints
    }

    static let privateNetworks = [
        "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "127.0.0.0/8", "169.254.0.0/16", "::1/128", "fc00::/7", "fe80::/10",
    ]
}

extension Certificate {
    /// Marks the extension critical: a client that does not understand it must refuse the certificate.
    func setNameConstraints(_ constraints: NameConstraints) throws {
        try checked(gnutls_x509_crt_set_name_constraints(certificate, constraints.constraints, 1), "limit an authority to the home network")
    }

    /// The certificate's name constraints; nil when it has none (an authority made before Zaiko set them).
    func nameConstraints() throws -> NameConstraints? {
        let constraints = try NameConstraints()
        var critical: UInt32 = 0
        let result = gnutls_x509_crt_get_name_constraints(certificate, constraints.constraints, 0, &critical)
        if result == GNUTLS_E_REQUESTED_DATA_NOT_AVAILABLE { return nil }
        try checked(result, "read an authority's name constraints")
        return constraints
    }

    /// What this authority may sign of `names`: all of them when it has no constraints.
    func permitted(_ names: SubjectNames) throws -> SubjectNames {
        try nameConstraints()?.permitted(names) ?? names
    }
}
