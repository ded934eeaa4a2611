import Inventory

/// Trusted HTML built in Swift for the hottest parts of a page (list rows), where rendering
/// 50 rows tag by tag through Mustache cost several milliseconds. Every value from a user goes
/// through `escape`; the template marks the place with `{{slot_NAME}}` and `Renderer` splices it in.
struct HTML: Sendable {
    private(set) var text = ""

    init() { text.reserveCapacity(32 * 1024) }

    /// Markup written by Zaiko itself.
    mutating func raw(_ markup: String) { text += markup }

    /// Text from anywhere, escaped for element content and quoted attribute values.
    mutating func text(_ value: String) { text += Self.escape(value) }

    static func escape(_ value: String) -> String {
        var needs = false
        for byte in value.utf8 where byte == 0x26 || byte == 0x3C || byte == 0x3E || byte == 0x22 || byte == 0x27 {
            needs = true
            break
        }
        guard needs else { return value }
        var out = [UInt8]()
        out.reserveCapacity(value.utf8.count + 16)
        for byte in value.utf8 {
            switch byte {
            case 0x26: out += Array("&amp;".utf8)
            case 0x3C: out += Array("&lt;".utf8)
            case 0x3E: out += Array("&gt;".utf8)
            case 0x22: out += Array("&quot;".utf8)
            case 0x27: out += Array("&#39;".utf8)
            default: out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A marker no user can type: random per process, replaced after rendering.
    static let slotMarker = "\u{E000}zaiko-slot-" + Crypto.token(byteCount: 12) + "-"

    /// `page` with the first `marker` replaced by `markup`, searched as bytes (Foundation's
    /// string search cost more than rendering the page).
    static func splice(_ page: String, marker: String, with markup: String) -> String {
        let haystack = Array(page.utf8), needle = Array(marker.utf8)
        guard let first = needle.first, haystack.count >= needle.count else { return page }
        var index = 0
        while index <= haystack.count - needle.count {
            if haystack[index] == first, haystack[index..<index + needle.count].elementsEqual(needle) {
                var out = [UInt8]()
                out.reserveCapacity(haystack.count + markup.utf8.count)
                out += haystack[..<index]
                out += markup.utf8
                out += haystack[(index + needle.count)...]
                return String(decoding: out, as: UTF8.self)
            }
            index += 1
        }
        return page
    }
}

/// What the last quick action on a row did, shown right above the row it concerns (`at`) so the
/// person sees it where they tapped; `undoIds` offers Undo after a delete.
struct RowNotice: Sendable {
    let at: Int64?
    let text: String
    var undoIds: String? = nil
}

/// The rows of a stock or shopping list for the pages still on swift-mustache: the compiled
/// `partials/item-rows` template (`ItemRowsView`), one code path with the list page and the
/// row a script asks for after a quick action.
enum ItemRowsHTML {
    static func render(_ rows: [ItemRowView], shared: RowContext, here: String, notice: RowNotice? = nil) -> String {
        ItemRowsView(rows, shared: shared, here: here, notice: notice, t: shared.t).html
    }

    /// The notice alone, for a row that is gone (deleted by a script's request).
    static func notice(_ notice: RowNotice, shared: RowContext) -> String {
        var view = ItemRowsView([], shared: shared, here: "", t: shared.t)
        view.leadNotice = notice
        return view.html
    }
}
