import Foundation
import Inventory

/// An uploaded CSV file waiting for the person to confirm its preview (`ItemsCSVReader.maxBytes` at most).
struct PendingCSV: Sendable {
    let data: Data
    let folderId: Folder.ID
}

/// Uploads waiting for their confirmation, one per session (see `SessionBoundStore`).
typealias PendingImports = SessionBoundStore<PendingCSV>

extension PendingCSV: HeldInMemory {
    var heldBytes: Int { data.count }
}
