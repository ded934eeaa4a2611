import Foundation
import Inventory

/// The messages of an event stream, in the Server-Sent Events format: `changes` (what changed, as
/// JSON, `id:` the household's sequence so a reconnect's `Last-Event-ID` says where it was),
/// `reload` (too much was missed: the page loads again), `signed-out`, and the heartbeat comment.
enum LiveEventMessage {
    /// One change as the page's script reads it.
    struct ChangeJSON: Encodable {
        let seq: Int64
        /// "folder", "item", "product", "recipe" or "meal".
        let entity: String
        let id: Int64
        /// "created", "changed" or "deleted".
        let kind: String
        let version: Int?
        let trash: Bool
        /// Items: the folder before and after the change.
        let from: Int64?
        let to: Int64?
        /// Who made it, by name (nil: unknown).
        let by: String?
        let at: String

        init(_ change: Change) {
            seq = change.sequence
            (entity, id) =
                switch change.entity {
                case .folder(let id): ("folder", id.rawValue)
                case .item(let id): ("item", id.rawValue)
                case .product(let id): ("product", id.rawValue)
                case .recipe(let id): ("recipe", id.rawValue)
                case .meal(let id): ("meal", id.rawValue)
                }
            kind = change.kind.rawValue
            version = change.version
            trash = change.inTrash
            from = change.fromFolderId?.rawValue
            to = change.toFolderId?.rawValue
            by = change.memberName
            at = change.at.description
        }
    }

    static let heartbeat = Array(": heartbeat\n\n".utf8)
    static let signedOut = Array("event: signed-out\ndata: \n\n".utf8)

    /// The first message of a stream: the reconnect delay and where the stream starts.
    static func ready(_ sequence: Int64) -> [UInt8] {
        Array("retry: 3000\nid: \(sequence)\nevent: ready\ndata: \(sequence)\n\n".utf8)
    }

    static func reload(_ latest: Int64) -> [UInt8] {
        Array("id: \(latest)\nevent: reload\ndata: \(latest)\n\n".utf8)
    }

    static func changes(_ changes: [Change], latest: Int64) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding plain values cannot fail; nothing is sent rather than half a message.
        guard let json = try? encoder.encode(changes.map(ChangeJSON.init)) else { return [] }
        return Array("id: \(latest)\nevent: changes\ndata: ".utf8) + Array(json) + Array("\n\n".utf8)
    }

    /// What a stream that saw everything up to some sequence is sent from `read`, and the sequence
    /// it has then seen: the changes, or `reload` when the feed no longer holds them all or more
    /// are missing than one read holds.
    static func catchingUp(_ read: ChangesSince) -> (message: [UInt8], latest: Int64) {
        switch read {
        case .tooFarBehind(let latest):
            return (reload(latest), latest)
        case .changes(let changes, let latest):
            if let last = changes.last, last.sequence < latest { return (reload(latest), latest) }
            return (changes.isEmpty ? [] : Self.changes(changes, latest: latest), latest)
        }
    }
}
