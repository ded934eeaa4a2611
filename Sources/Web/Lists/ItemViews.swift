import Foundation
import Inventory
import Synchronization

/// What every row of one list page shares: who may write, the kind of list, and the labels.
struct RowContext: Sendable {
    let canWrite: Bool
    let isStock: Bool
    let hasShoppingLists: Bool
    /// Rows carry a checkbox for the list's bulk actions (not on pages that gather several folders).
    let selectable: Bool
    /// Rows link "Recipes with this" (the use-soon page).
    var recipesLink = false
    /// The labels of the reader's language, compiled with the templates.
    let t: TemplateLabels

    init(canWrite: Bool, isStock: Bool, hasShoppingLists: Bool, selectable: Bool = true, t: Catalog) {
        self.canWrite = canWrite
        self.isStock = isStock
        self.hasShoppingLists = hasShoppingLists
        self.selectable = selectable
        self.t = .of(t)
    }
}

/// One row of a stock or shopping list, formatted once (rendered by `ItemRowsView`).
struct ItemRowView: Sendable {
    let id: Item.ID
    let name: String
    /// The quantity with its unit as the reader says it ("2 bottles", "1 bottle", 「2本」): what rows show.
    let amount: String
    /// `amount` split around its number, for the row's quantity (the number stands out).
    let amountParts: (before: String, number: String, after: String)
    /// One tap of − or + ("1", "50", "0.1"): as learned from the product's uses, else the unit's (`Item.step`).
    let step: String
    /// A shopping row a keep rule put there or added to: it says so.
    let refill: Bool
    let kind: String
    let status: String?
    /// The status as stored (`unopened`, `opened`, `running_low`), for the row's class.
    let statusKey: String?
    let isOpened: Bool
    let due: String?
    let dueState: String
    let dueWord: String?
    /// How far the due date is from the household's today, in words: "in 2 days", "tomorrow",
    /// "2 days ago" (「あと2日」「明日」「2日前」); nil past `DueDistance.shownDays` either way, and
    /// for today, which the row's tag already says.
    let dueIn: String?
    let urgent: Bool
    /// Shopping rows: in a shopper's basket.
    let inBasket: Bool
    let note: String?
    /// The photo or illustration, else the kind's icon.
    let thumbnail: String
    let hasPicture: Bool
    /// The item's folder, on pages that gather items from several folders.
    let folder: String?

    init(_ item: Item, window: DueWindow, t: Catalog, urls: StaticURLs, folder: String? = nil) {
        id = item.id ?? 0
        name = item.name
        amountParts = t.quantityParts(item.quantity, unit: item.unit.rawValue)
        amount = amountParts.before + amountParts.number + amountParts.after
        step = Quantity.text(item.step)
        refill = item.refillQuantity != nil
        kind = t[.kind, item.kind]
        let picture = item.picture
        thumbnail = urls.picture(picture, size: .small, kind: item.kind)
        hasPicture = picture != nil
        status = item.status.map { t[.status, $0] }
        statusKey = item.status?.rawValue
        isOpened = item.status == .opened
        let state = window.state(of: item.due)
        dueState = state.rawValue
        let dueDay = item.due
        due = dueDay.map { DisplayFormat.day($0, locale: t) }
        dueWord = [.expired, .today, .soon].contains(state) ? t[.due, state.rawValue] : nil
        dueIn = dueDay.flatMap { state == .today ? nil : DueDistance.words($0, today: window.today, t) }
        urgent = item.urgent
        inBasket = item.inBasket
        note = item.note.isEmpty ? nil : item.note
        self.folder = folder
    }

    /// The folder icon that stands for a kind of food on items without a picture.
    static func icon(forKind kind: ItemKind?) -> String {
        switch kind {
        case .meat: "meat"
        case .fish: "fish"
        case .vegetables: "vegetables"
        case .fruit: "fruit"
        case .dairyEggs: "milk"
        case .drinks: "bottle"
        case .seasonings: "spices"
        case .prepared: "rice"
        case .other, nil: "box"
        }
    }
}

/// A choice in a list of options (filters, selects, radio groups).
struct Choice: Sendable {
    let value: String
    let label: String
    let selected: Bool
    /// A folder icon's address, in the icon picker.
    var iconURL: String? = nil
}

extension DisplayFormat {
    /// "Nov 25, 2026" / "2026年11月25日". Memoised: a list shows the same few days over and
    /// over, and Foundation's formatting is slow on Linux.
    static func day(_ day: CalendarDay, locale: Catalog) -> String {
        let key = DayInLanguage(code: locale.code, day: day)
        if let known = formattedDays.withLock({ $0[key] }) { return known }
        var style = Date.FormatStyle(date: .abbreviated, time: .omitted)
        style.locale = Locale(identifier: locale.code)
        style.timeZone = .gmt
        let text = day.start(in: .gmt).formatted(style)
        formattedDays.withLock { cache in
            if cache.count > 20_000 { cache.removeAll() }
            cache[key] = text
        }
        return text
    }

    /// Keyed without writing the day out: every row with a date looks it up.
    private struct DayInLanguage: Hashable {
        let code: String
        let day: CalendarDay
    }

    private static let formattedDays = Mutex<[DayInLanguage: String]>([:])
}

/// A due date's distance from today in words, as rows show it beside the date.
enum DueDistance {
    /// Farther than this many days either way, the date alone says enough.
    static let shownDays = 14

    /// "today", "tomorrow", "in 5 days", "yesterday", "3 days ago" (catalog keys `due_in_days`
    /// and `due_days_ago`, with their exact and plural forms); nil beyond `shownDays`.
    static func words(_ day: CalendarDay, today: CalendarDay, _ t: Catalog) -> String? {
        let days = day.days(since: today)
        guard abs(days) <= shownDays else { return nil }
        return days >= 0 ? t.count(.dueInDays, days) : t.count(.dueDaysAgo, -days)
    }
}

/// A small page that asks one question with a few buttons (buy again where, what to do at zero;
/// `Templates/choice.mustache`, compiled).
struct ChoicePage: CompiledPage {
    struct Option: Sendable {
        let action: String
        let label: String
        var isPrimary = false
        var hidden: [FormField] = []
        var isDanger = false
    }

    let heading: String
    let message: String
    let back: String
    let options: [Option]
    let cancelLabel: String

    func title(_ t: Catalog) -> String { heading }

    static func buyAgain(item: Item, lists: [Folder], back: String, t: Catalog) -> ChoicePage {
        ChoicePage(
            heading: t[.buyAgainHeading], message: t.format(.buyAgainMessage, ["name": item.name]), back: back,
            options: lists.map { Option(action: Route.item(item.id).buyAgain, label: displayName($0, t), hidden: [.hidden("shopping", "\($0.id)")]) },
            cancelLabel: t[.cancel])
    }

    /// `kept`: the item's product's keep rule. When its refill is on a shopping list already, the
    /// page says so and offers no move there (a second row of the same thing).
    static func empty(item: Item, lists: [Folder], kept: KeepRule? = nil, back: String, t: Catalog) -> ChoicePage {
        var options = [Option(action: "/items/\(item.id)/delete", label: t[.emptyDelete], isPrimary: true)]
        if let kept, kept.onList > 0 {
            return ChoicePage(
                heading: t.format(.emptyHeading, ["name": item.name]),
                message: t.format(.keepEmptyMessage, ["amount": t.quantity(kept.onList, unit: kept.unit)]), back: back, options: options,
                cancelLabel: t[.emptyKeep])
        }
        options += lists.map {
            Option(
                action: "/folders/\(item.folderId)/bulk", label: t.format(.emptyMoveTo, ["list": displayName($0, t)]),
                hidden: [.hidden("action", "move"), .hidden("ids", "\(item.id)"), .hidden("target", "\($0.id)")])
        }
        return ChoicePage(
            heading: t.format(.emptyHeading, ["name": item.name]), message: t[.emptyMessage], back: back,
            options: options, cancelLabel: t[.emptyKeep])
    }
}
