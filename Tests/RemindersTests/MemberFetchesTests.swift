import Foundation
import Outbound
import Testing

/// Requests a member sets off (a recipe import) reach the home network only when both the operator
/// and the household's owner allow it (issue 22, item 7).
@Suite("Where a member's fetches may go")
struct MemberFetchesTests {
    @Test(arguments: [(false, false, false), (false, true, false), (true, false, false), (true, true, true)])
    func privateAddressesNeedTheOperatorAndTheOwner(operatorAllows: Bool, ownerAllows: Bool, reachesPrivate: Bool) throws {
        let policy = MemberFetches.policy(operatorAllowsPrivate: operatorAllows, ownerAllowsPrivate: ownerAllows)
        #expect(policy.permits(try #require(IPAddress("127.0.0.1"))) == reachesPrivate)
        #expect(policy.permits(try #require(IPAddress("192.168.1.10"))) == reachesPrivate)
        #expect(policy.permits(try #require(IPAddress("93.184.216.34"))), "public addresses always")
    }

    @Test func aMembersClientRefusesLoopbackUnlessTheOwnerAllowsIt() async throws {
        let resolver = TableResolver(table: ["kitchen.home": ["192.168.1.10"]])
        let fetches = MemberFetches(operatorAllowsPrivate: true, resolver: resolver)
        for url in ["http://127.0.0.1:9/recipe", "http://kitchen.home/recipe"] {
            do {
                _ = try await fetches.client(ownerAllowsPrivate: false).send(
                    method: "GET", url: URL(string: url)!, headers: [], body: [], timeout: 1, maxResponseBytes: 1024)
                Issue.record("\(url) was fetched")
            } catch {
                guard case .refusedAddress = error else {
                    Issue.record("\(url): \(error)")
                    continue
                }
            }
        }
        // Allowed by both: the request goes out (nothing listens on port 9, so it is unreachable, not refused).
        do {
            _ = try await fetches.client(ownerAllowsPrivate: true).send(
                method: "GET", url: URL(string: "http://127.0.0.1:9/recipe")!, headers: [], body: [], timeout: 2, maxResponseBytes: 1024)
        } catch {
            if case .refusedAddress = error { Issue.record("refused although the operator and the owner allow it") }
        }
    }
}
