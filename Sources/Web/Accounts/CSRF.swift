import Foundation
import HTTPServer
import Inventory

/// Cross-site request forgery checks for every POST.
enum CSRF {
    /// The form's `_csrf` must equal the expected token (compared in constant time), and a
    /// browser that says where the form came from must say it came from this site.
    /// `hosts`: the names the server answers to, which the origin must be one of; without them
    /// (tests of the web layer alone) the origin must be the request's Host.
    static func accepts(_ request: Request, expected: String?, hosts: HostAllowlist?) -> Bool {
        guard isSameOrigin(request, hosts: hosts) else { return false }
        guard let expected, !expected.isEmpty, let sent = request.form["_csrf"] else { return false }
        return Crypto.constantTimeEquals(sent, expected)
    }

    static func isSameOrigin(_ request: Request, hosts: HostAllowlist?) -> Bool {
        if request.headers["sec-fetch-site"] == "cross-site" { return false }
        guard let origin = request.headers["origin"], origin != "null" else { return true }
        if let hosts { return hosts.allows(origin: origin) }
        guard let host = request.headers["host"] else { return false }
        return origin == "http://\(host)" || origin == "https://\(host)"
    }
}
