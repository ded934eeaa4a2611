import Foundation
import Inventory
import Outbound
import Synchronization

/// Asks an Open Food Facts–shaped service about a barcode the household has never saved
/// (only when the owner turned it on). Only the digits leave the house; only the service's
/// address and the picture it names on the same site are fetched; any failure just means
/// "not found" and the form stays usable.
struct ProductLookup: Sendable {
    let client: any OutboundSending
    var timeout: TimeInterval = 4
    /// Barcodes the service did not know, for a few minutes: a miss is not asked about again at once.
    let misses = MissCache()

    struct Found: Sendable, Equatable {
        let name: String
        let imageURL: URL?
    }

    /// The product's name (and picture address) for `barcode`, or nil.
    func find(_ barcode: String, baseURL: String) -> Found? {
        guard barcode.utf8.allSatisfy({ (0x30...0x39).contains($0) }), (6...14).contains(barcode.utf8.count),
            let url = URL(string: "\(baseURL)/api/v2/product/\(barcode).json?fields=product_name,image_front_url,image_url")
        else { return nil }
        guard !misses.contains(barcode, at: Date()) else { return nil }
        let found = ask(url)
        if found == nil { misses.insert(barcode, at: Date()) }
        return found
    }

    private func ask(_ url: URL) -> Found? {
        guard
            let response = waitForTask({
                try? await client.send(
                    method: "GET", url: url, headers: [("Accept", "application/json")], body: [],
                    timeout: timeout, maxResponseBytes: 256 * 1024)
            }),
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
        guard
            let response = waitForTask({
                try? await client.send(
                    method: "GET", url: url, headers: [], body: [], timeout: timeout,
                    maxResponseBytes: 10 * 1024 * 1024)
            }),
            response.isSuccess
        else { return nil }
        return response.body
    }

    /// Domains whose API names pictures on a sibling host (world.openfoodfacts.org → images.openfoodfacts.org).
    static let siblingImageDomains = ["openfoodfacts.org", "openbeautyfacts.org", "openproductsfacts.org", "openpetfoodfacts.org"]

    /// A picture is fetched only from the service's own host and port, or for the Open Food Facts
    /// family from a sibling host of the same domain over https.
    static func sameSite(_ image: URL, as service: URL) -> Bool {
        guard let scheme = image.scheme?.lowercased(), ["http", "https"].contains(scheme),
            let host = image.host?.lowercased(), let serviceHost = service.host?.lowercased()
        else { return false }
        if host == serviceHost { return image.port == service.port }
        return scheme == "https" && image.port == nil
            && siblingImageDomains.contains { serviceHost.hasSuffix("." + $0) && host.hasSuffix("." + $0) }
    }
}

/// Barcodes recently not found, forgotten after five minutes.
final class MissCache: Sendable {
    private let entries = Mutex<[String: Date]>([:])

    func contains(_ barcode: String, at now: Date) -> Bool {
        entries.withLock { ($0[barcode] ?? .distantPast) > now.addingTimeInterval(-300) }
    }

    func insert(_ barcode: String, at now: Date) {
        entries.withLock { cache in
            if cache.count > 1000 { cache = cache.filter { $0.value > now.addingTimeInterval(-300) } }
            cache[barcode] = now
        }
    }
}
