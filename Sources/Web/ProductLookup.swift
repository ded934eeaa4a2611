import Foundation
import Inventory
import Outbound

/// Asks an Open Food Facts–shaped service about a barcode the household has never saved
/// (only when the owner turned it on). Only the digits leave the house; only the service's
/// address and the picture it names on the same site are fetched; any failure just means
/// "not found" and the form stays usable.
struct ProductLookup: Sendable {
    let client: any OutboundSending
    var timeout: TimeInterval = 4

    struct Found: Sendable, Equatable {
        let name: String
        let imageURL: URL?
    }

    /// The product's name (and picture address) for `barcode`, or nil.
    func find(_ barcode: String, baseURL: String) -> Found? {
        guard barcode.utf8.allSatisfy({ (0x30...0x39).contains($0) }), (6...14).contains(barcode.utf8.count),
            let url = URL(string: "\(baseURL)/api/v2/product/\(barcode).json?fields=product_name,image_front_url,image_url")
        else { return nil }
        guard let response = wait({ try await client.send(method: "GET", url: url, headers: [("Accept", "application/json")], body: [],
                                                           timeout: timeout, maxResponseBytes: 256 * 1024) }),
            response.isSuccess,
            let json = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any],
            let product = json["product"] as? [String: Any],
            let name = (product["product_name"] as? String)?.trimmingCharacters(in: .whitespacesAndNewlines), !name.isEmpty
        else { return nil }
        let image = ((product["image_front_url"] as? String) ?? (product["image_url"] as? String)).flatMap(URL.init(string:))
        return Found(name: String(name.prefix(100)), imageURL: image.flatMap { Self.sameSite($0, as: url) ? $0 : nil })
    }

    /// The picture's bytes, capped like an upload.
    func image(_ url: URL) -> [UInt8]? {
        guard let response = wait({ try await client.send(method: "GET", url: url, headers: [], body: [], timeout: timeout,
                                                           maxResponseBytes: 10 * 1024 * 1024) }),
            response.isSuccess
        else { return nil }
        return response.body
    }

    /// A picture is fetched only from the service's own host or a sibling on its domain
    /// (world.openfoodfacts.org names images.openfoodfacts.org), over http(s).
    static func sameSite(_ image: URL, as service: URL) -> Bool {
        guard let scheme = image.scheme?.lowercased(), ["http", "https"].contains(scheme),
            let host = image.host?.lowercased(), let serviceHost = service.host?.lowercased()
        else { return false }
        if host == serviceHost { return image.port == service.port }
        let labels = serviceHost.split(separator: ".")
        guard labels.count >= 3, labels.allSatisfy({ !$0.allSatisfy(\.isNumber) }) else { return false }
        return host.hasSuffix("." + labels.suffix(2).joined(separator: "."))
    }

    /// Handlers are synchronous (a libmicrohttpd worker thread): wait for the answer, which the
    /// client's own timeout bounds.
    private func wait(_ request: @escaping @Sendable () async throws -> OutboundResponse) -> OutboundResponse? {
        let box = ResultBox()
        let done = DispatchSemaphore(value: 0)
        Task {
            box.set(try? await request())
            done.signal()
        }
        done.wait()
        return box.get()
    }
}

private final class ResultBox: @unchecked Sendable {
    // Written once by the task before the semaphore is signalled, read after the wait.
    private var value: OutboundResponse?
    private let lock = NSLock()
    func set(_ response: OutboundResponse?) { lock.withLock { value = response } }
    func get() -> OutboundResponse? { lock.withLock { value } }
}
