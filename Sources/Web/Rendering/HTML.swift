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

/// The rows of a stock or shopping list. One code path for the whole page and for the one row a
/// script asks for after a quick action (`RowFragment`).
///
/// A row is compact: picture, name, due word and date, quantity with − / +; the less frequent
/// actions (mark opened, buy again, edit, delete) sit in a `<details>` menu whose buttons post the
/// list's form without JavaScript. Each row is `id="item-N"`, the anchor its actions come back to.
enum ItemRowsHTML {
    static func render(_ rows: [ItemRowView], shared: RowContext, here: String, notice: RowNotice? = nil) -> String {
        var html = HTML()
        let labels = shared.labels
        func label(_ key: String) -> String { labels["label_\(key)"] ?? key }
        let back = HTML.escape(here)
        for (index, row) in rows.enumerated() {
            let id = String(row.id)
            let name = HTML.escape(row.name)
            if let notice, notice.at == row.id { noticeItem(&html, notice, undoLabel: label("undo")) }
            let checked = shared.canWrite && shared.selectable
            html.raw(
                "<li class=\"item-row row-compact\(checked ? " with-check" : "") due-\(row.dueState)\(row.urgent ? " is-urgent" : "")\" id=\"item-\(id)\">\n")
            if checked {
                html.raw("<input class=\"row-check\" type=\"checkbox\" name=\"ids\" value=\"\(id)\" id=\"pick-\(id)\" aria-label=\"")
                html.text(label("select"))
                html.raw(" \(name)\">\n")
            }
            html.raw(
                "<img class=\"item-thumb\(row.hasPicture ? " has-picture" : "")\" src=\"\(HTML.escape(row.thumbnail))\" alt=\"\" width=\"48\" height=\"48\" loading=\"lazy\">\n"
            )
            html.raw("<a class=\"item-name\" href=\"/items/\(id)\">\(name)</a>\n<p class=\"item-meta\">\n")
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
                html.raw("<span class=\"due\"><span class=\"due-label\">")
                html.text(label("due_label"))
                html.raw(" </span>")
                html.text(due)
                html.raw("</span>\n")
            }
            if let folder = row.folder {
                html.raw("<span class=\"item-folder\"><span class=\"visually-hidden\">")
                html.text(label("row_folder"))
                html.raw(": </span>")
                html.text(folder)
                html.raw("</span>\n")
            }
            html.raw("<span class=\"item-kind\">")
            html.text(row.kind)
            html.raw("</span>")
            if let status = row.status {
                html.raw("\n<span class=\"item-status status-\(HTML.escape(row.statusKey ?? ""))\">")
                html.text(status)
                html.raw("</span>")
            }
            if shared.recipesLink {
                html.raw("\n<a class=\"row-recipes\" href=\"")
                html.text(RecipesQuery.forIngredient(row.name))
                html.raw("\">")
                html.text(label("recipes_with_this"))
                html.raw("<span class=\"visually-hidden\">: \(name)</span></a>")
            }
            html.raw("\n</p>\n<div class=\"item-qty\">\n")
            if shared.canWrite { step(&html, id, "-1", label("decrease"), name, "−") }
            html.raw("<span class=\"qty\">")
            if !row.amountParts.before.isEmpty {
                html.raw("<small>")
                html.text(row.amountParts.before)
                html.raw("</small>")
            }
            html.text(row.amountParts.number)
            html.raw("<small>")
            html.text(row.amountParts.after)
            html.raw("</small></span>\n")
            if shared.canWrite { step(&html, id, "1", label("increase"), name, "+") }
            html.raw("</div>\n")
            if shared.canWrite {
                html.raw("<details class=\"row-menu\">\n<summary><span aria-hidden=\"true\">⋯</span><span class=\"visually-hidden\">")
                html.text(label("row_menu"))
                html.raw(" \(name)</span></summary>\n<div class=\"row-menu-items\">\n")
                if shared.isStock {
                    if !row.isOpened { action(&html, "/items/\(id)/opened", label("mark_opened"), name) }
                    if shared.hasShoppingLists { action(&html, "/items/\(id)/buy-again", label("buy_again"), name) }
                }
                html.raw("<a class=\"link-button\" href=\"/items/\(id)/edit?return=\(back)\">")
                html.text(label("edit"))
                html.raw("<span class=\"visually-hidden\"> \(name)</span></a>\n")
                // After a delete the list comes back to the neighbouring row.
                let neighbour = index + 1 < rows.count ? rows[index + 1].id : index > 0 ? rows[index - 1].id : nil
                action(&html, "/items/\(id)/delete", label("delete"), name, danger: true, field: neighbour.map { ("next", String($0)) })
                html.raw("</div>\n</details>\n")
            }
            html.raw("</li>\n")
        }
        return html.text
    }

    /// The notice alone, for a row that is gone (deleted by a script's request).
    static func notice(_ notice: RowNotice, shared: RowContext) -> String {
        var html = HTML()
        noticeItem(&html, notice, undoLabel: shared.labels["label_undo"] ?? "Undo")
        return html.text
    }

    /// A list item of its own (a list holds only items) with the notice; Undo posts the list's
    /// form to the trash with just this item (`undo`), whatever else is ticked.
    private static func noticeItem(_ html: inout HTML, _ notice: RowNotice, undoLabel: String) {
        html.raw("<li class=\"row-notice\"><div class=\"notice\" role=\"status\">\n<span>")
        html.text(notice.text)
        html.raw("</span>\n")
        if let undo = notice.undoIds {
            html.raw("<button class=\"button button-secondary\" type=\"submit\" formaction=\"/trash/restore\" name=\"undo\" value=\"")
            html.text(undo)
            html.raw("\">")
            html.text(undoLabel)
            html.raw("</button>\n")
        }
        html.raw("</div></li>\n")
    }

    private static func step(_ html: inout HTML, _ id: String, _ delta: String, _ label: String, _ escapedName: String, _ symbol: String) {
        html.raw("<button class=\"step\" type=\"submit\" formaction=\"/items/\(id)/quantity\" name=\"delta\" value=\"\(delta)\" aria-label=\"")
        html.text(label)
        html.raw(" \(escapedName)\">\(symbol)</button>\n")
    }

    private static func action(
        _ html: inout HTML, _ path: String, _ label: String, _ escapedName: String, danger: Bool = false, field: (String, String)? = nil
    ) {
        html.raw("<button class=\"link-button\(danger ? " danger" : "")\" type=\"submit\" formaction=\"\(path)\"")
        if let (name, value) = field { html.raw(" name=\"\(name)\" value=\"\(value)\"") }
        html.raw(">")
        html.text(label)
        html.raw("<span class=\"visually-hidden\"> \(escapedName)</span></button>\n")
    }
}
