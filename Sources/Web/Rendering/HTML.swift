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

/// The rows of a stock or shopping list, the same markup the list template had per row.
enum ItemRowsHTML {
    static func render(_ rows: [ItemRowView], shared: RowContext, here: String) -> String {
        var html = HTML()
        let labels = shared.labels
        func label(_ key: String) -> String { labels["label_\(key)"] ?? key }
        let back = HTML.escape(here)
        for row in rows {
            let id = String(row.id)
            let name = HTML.escape(row.name)
            html.raw("<li class=\"item-row due-\(row.dueState)\(row.urgent ? " is-urgent" : "")\">\n")
            if shared.canWrite, shared.selectable {
                html.raw("<input class=\"row-check\" type=\"checkbox\" name=\"ids\" value=\"\(id)\" id=\"pick-\(id)\" aria-label=\"")
                html.text(label("select"))
                html.raw(" \(name)\">\n")
            }
            html.raw(
                "<img class=\"item-thumb\(row.hasPicture ? " has-picture" : "")\" src=\"\(HTML.escape(row.thumbnail))\" alt=\"\" width=\"48\" height=\"48\" loading=\"lazy\">\n"
            )
            html.raw("<div class=\"item-main\">\n<a class=\"item-name\" href=\"/items/\(id)\">\(name)</a>\n<p class=\"item-meta\">\n")
            if row.urgent {
                html.raw("<span class=\"tag tag-urgent\"><span aria-hidden=\"true\">!</span> ")
                html.text(label("urgent"))
                html.raw("</span>\n")
            }
            if let word = row.dueWord {
                html.raw("<span class=\"tag tag-\(row.dueState)\">")
                html.text(word)
                html.raw("</span>\n")
            }
            if let due = row.due {
                html.raw("<span class=\"due\">")
                html.text(label("due_label") + " " + due)
                html.raw("</span>\n")
            }
            if let folder = row.folder {
                html.raw("<span class=\"item-folder\"><span class=\"visually-hidden\">")
                html.text(label("row_folder"))
                html.raw(": </span>")
                html.text(folder)
                html.raw("</span>\n")
            }
            html.raw("<span>")
            html.text(row.kind)
            html.raw("</span>")
            if let status = row.status {
                html.raw(" · <span>")
                html.text(status)
                html.raw("</span>")
            }
            html.raw("\n</p>\n</div>\n<div class=\"item-qty\">\n")
            if shared.canWrite { step(&html, id, "-1", label("decrease"), name, "−") }
            html.raw("<span class=\"qty\">")
            html.text(row.quantity)
            html.raw(" <small>")
            html.text(row.unit)
            html.raw("</small></span>\n")
            if shared.canWrite { step(&html, id, "1", label("increase"), name, "+") }
            html.raw("</div>\n")
            if shared.canWrite {
                html.raw("<div class=\"item-actions\">\n")
                if shared.isStock {
                    if !row.isOpened { action(&html, "/items/\(id)/opened", label("mark_opened"), name) }
                    if shared.hasShoppingLists { action(&html, "/items/\(id)/buy-again", label("buy_again"), name) }
                }
                html.raw("<a class=\"link-button\" href=\"/items/\(id)/edit?return=\(back)\">")
                html.text(label("edit"))
                html.raw("<span class=\"visually-hidden\"> \(name)</span></a>\n")
                action(&html, "/items/\(id)/delete", label("delete"), name, danger: true)
                html.raw("</div>\n")
            }
            html.raw("</li>\n")
        }
        return html.text
    }

    private static func step(_ html: inout HTML, _ id: String, _ delta: String, _ label: String, _ escapedName: String, _ symbol: String) {
        html.raw("<button class=\"step\" type=\"submit\" formaction=\"/items/\(id)/quantity\" name=\"delta\" value=\"\(delta)\" aria-label=\"")
        html.text(label)
        html.raw(" \(escapedName)\">\(symbol)</button>\n")
    }

    private static func action(_ html: inout HTML, _ path: String, _ label: String, _ escapedName: String, danger: Bool = false) {
        html.raw("<button class=\"link-button\(danger ? " danger" : "")\" type=\"submit\" formaction=\"\(path)\">")
        html.text(label)
        html.raw("<span class=\"visually-hidden\"> \(escapedName)</span></button>\n")
    }
}
