import Foundation
import Inventory
import Outbound
import TestSupport
import Testing

/// A resolver that answers from a table, as a hostile DNS server might.
struct TableResolver: HostResolving {
    let table: [String: [String]]

    func addresses(of host: String, port: Int) async throws(OutboundError) -> [IPAddress] {
        guard let texts = table[host] else { throw .unreachable("no address for \(host)") }
        return texts.compactMap(IPAddress.init)
    }
}

@Suite("Where outbound requests may go")
struct AddressPolicyTests {
    @Test func localPrivateAndSpecialAddressesAreNotPublic() {
        let local = [
            "127.0.0.1", "127.255.255.254", "0.0.0.0", "0.1.2.3", "10.0.0.1", "10.255.255.255", "172.16.0.1", "172.31.255.255",
            "192.168.1.5", "100.64.0.1", "100.127.255.254", "169.254.169.254", "224.0.0.1", "239.255.255.250", "255.255.255.255",
            "240.0.0.1", "192.0.0.8", "198.18.0.1",
            "::1", "::", "fc00::1", "fd12:3456::1", "fe80::1", "febf::1", "ff02::1", "fec0::1",
            "::ffff:127.0.0.1", "::ffff:10.1.2.3", "::ffff:192.168.0.1", "::ffff:169.254.169.254", "::127.0.0.1",
            "64:ff9b::10.0.0.1", "2002:c0a8:0101::1", "[::1]", "[::ffff:7f00:1]",
        ]
        for text in local {
            let address = IPAddress(text)
            #expect(address != nil, "\(text) parses")
            #expect(address?.isPublic == false, "\(text) is local")
            #expect(address.map(AddressPolicy.publicOnly.permits) == false, "\(text) refused by default")
            #expect(address.map(AddressPolicy.anywhere.permits) == true, "\(text) allowed by the operator")
        }
        let public_ = [
            "8.8.8.8", "1.1.1.1", "93.184.216.34", "172.32.0.1", "100.128.0.1", "192.0.32.10", "2606:4700:4700::1111",
            "::ffff:8.8.8.8", "64:ff9b::808:808", "2002:0808:0808::1",
        ]
        for text in public_ {
            #expect(IPAddress(text)?.isPublic == true, "\(text) is public")
        }
        #expect(IPAddress("ntfy.sh") == nil)
    }

    @Test func aLoopbackServerIsRefusedByDefaultAndReachedWhenAllowed() async throws {
        let server = try FakePushServer(clock: ManualClock())
        defer { server.stop() }
        let url = URL(string: server.base + "/topic")!
        await #expect(throws: OutboundError.refusedAddress("127.0.0.1")) {
            _ = try await OutboundHTTP().send(method: "POST", url: url, headers: [("Content-Type", "text/plain")], body: Array("hi".utf8), timeout: 5)
        }
        #expect(server.received.isEmpty, "nothing reached the local server")
        let response = try await OutboundHTTP(policy: .anywhere).send(
            method: "POST", url: url, headers: [("Content-Type", "text/plain")], body: Array("hi".utf8), timeout: 5)
        #expect(response.status == 200)
        #expect(server.received.count == 1)
    }

    @Test func theAddressIsCheckedAfterResolvingEveryAnswer() async throws {
        let server = try FakePushServer(clock: ManualClock())
        defer { server.stop() }
        // A name whose answers include a local address is refused, whatever else it resolves to.
        let resolver = TableResolver(table: ["push.test": ["93.184.216.34", "127.0.0.1"], "rebind.test": ["::ffff:127.0.0.1"]])
        for host in ["push.test", "rebind.test"] {
            await #expect(throws: OutboundError.refusedAddress(host)) {
                _ = try await OutboundHTTP(resolver: resolver).send(method: "POST", url: URL(string: "http://\(host):\(server.port)/t")!, timeout: 5)
            }
        }
        // The system resolver: "localhost" and numbers written in other forms are local too.
        for address in [
            "http://localhost:\(server.port)/t", "http://2130706433:\(server.port)/t", "http://0x7f.1:\(server.port)/t", "http://127.1:\(server.port)/t",
        ] {
            do {
                _ = try await OutboundHTTP().send(method: "POST", url: URL(string: address)!, timeout: 5)
                Issue.record("\(address) was reached")
            } catch {
                guard case .refusedAddress = error else {
                    Issue.record("\(address): \(error)")
                    continue
                }
            }
        }
        #expect(server.received.isEmpty)
    }

    @Test func plainHTTPGoesToTheAddressThatWasChecked() async throws {
        let server = try FakePushServer(clock: ManualClock())
        defer { server.stop() }
        // "push.test" exists only in this resolver: the request can only arrive through the checked address.
        let resolver = TableResolver(table: ["push.test": ["127.0.0.1"]])
        let response = try await OutboundHTTP(policy: .anywhere, resolver: resolver)
            .send(
                method: "POST", url: URL(string: "http://push.test:\(server.port)/topic?x=1")!, headers: [("Content-Type", "text/plain")],
                body: Array("hi".utf8), timeout: 5)
        #expect(response.status == 200)
        #expect(server.received.first?.path == "/topic")
        #expect(server.received.first?.headers["host"] == "push.test:\(server.port)")
        // An IPv6 answer makes a valid address too (nothing listens on [::1] at that port: a connection error, not a bad URL).
        do {
            _ = try await OutboundHTTP(policy: .anywhere, resolver: TableResolver(table: ["push6.test": ["::1"]]))
                .send(method: "GET", url: URL(string: "http://push6.test:\(server.port)/")!, timeout: 5)
        } catch {
            #expect(error != .unsupportedURL("http://push6.test:\(server.port)/"))
        }
    }

    @Test func aPushToARefusedAddressIsReportedAsSuchAndNeverSent() async throws {
        let server = try FakePushServer(clock: ManualClock())
        defer { server.stop() }
        let fixture = try EngineFixture(timeZone: "UTC", start: utc("2026-11-22T09:00:00Z"))
        try fixture.ntfy(server.base)
        try await running(fixture.engine(sender: OutboundHTTP())) {
            let id = try fixture.outbox.enqueueTest(in: fixture.household, title: "Zaiko test", body: "Push works")
            try await eventually { try fixture.outbox.message(id, in: fixture.household)?.state == .failed }
            #expect(try fixture.outbox.message(id, in: fixture.household)?.lastError == .refusedAddress)
        }
        #expect(server.received.isEmpty)
    }
}
