import Inventory

/// The geometry of the Household page's charts, worked out here so the template only places what
/// it is given: inline SVG drawn on the server (no chart script), each a picture with a title and
/// a description for screen readers, beside a table of the same figures.
///
/// Every chart is drawn in a box `width` units wide that the page scales to its column; sizes are
/// chosen for a phone's 390 px, where one unit is about one pixel.
enum HabitCharts {
    static let width = 360
    /// Numbers in SVG attributes: one decimal, in the C locale whatever the reader's language.
    static func number(_ value: Double) -> String {
        let tenths = (value * 10).rounded()
        return tenths.truncatingRemainder(dividingBy: 10) == 0 ? String(Int(tenths / 10)) : String(tenths / 10)
    }

    /// A label no longer than `limit` characters, "…" ending one that was cut (the table has it whole).
    static func short(_ text: String, _ limit: Int = 30) -> String {
        text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
    }
}

/// Vertical bars along a time axis (waste per month).
struct ColumnChart: Sendable {
    struct Column: Sendable {
        let x: String
        let y: String
        let barWidth: String
        let barHeight: String
        /// The column's name under it ("Mar"), centred at `middle`.
        let label: String
        let middle: String
        /// The value over the bar, shown when it is not 0.
        let value: String
        let hasValue: Bool
        let valueY: String
    }

    let id: String
    let title: String
    let summary: String
    let width = HabitCharts.width
    let height = 190
    let baseline = 160
    let columns: [Column]

    /// `values` as columns of one width, the tallest reaching the top.
    init(id: String, title: String, summary: String, values: [(label: String, value: Int)]) {
        self.id = id
        self.title = title
        self.summary = summary
        let top = max(1, values.map(\.value).max() ?? 1)
        let slot = Double(HabitCharts.width) / Double(max(1, values.count))
        let plot = Double(baseline - 24)
        columns = values.enumerated().map { index, entry in
            let height = entry.value == 0 ? 0 : max(2, plot * Double(entry.value) / Double(top))
            let barWidth = slot * 0.64
            let x = slot * Double(index) + (slot - barWidth) / 2
            return Column(
                x: HabitCharts.number(x), y: HabitCharts.number(Double(160) - height), barWidth: HabitCharts.number(barWidth),
                barHeight: HabitCharts.number(height), label: entry.label, middle: HabitCharts.number(slot * Double(index) + slot / 2),
                value: "\(entry.value)", hasValue: entry.value > 0, valueY: HabitCharts.number(Double(160) - height - 5))
        }
    }
}

/// Horizontal bars, one a row with its name over it (top wasted, days left).
struct RowChart: Sendable {
    struct Row: Sendable {
        let name: String
        let nameY: String
        let barY: String
        let barWidth: String
        /// The figure at the bar's end ("3 times").
        let value: String
        let valueX: String
        let valueY: String
    }

    let id: String
    let title: String
    let summary: String
    let width = HabitCharts.width
    let height: Int
    let rows: [Row]

    static let rowHeight = 40
    static let barHeight = 14
    /// Room at the right of the longest bar for its figure.
    static let valueRoom = 96.0

    /// `values` as bars, the largest `cap` or more filling the row.
    init(id: String, title: String, summary: String, values: [(name: String, value: Double, text: String)], cap: Double? = nil) {
        self.id = id
        self.title = title
        self.summary = summary
        height = max(1, values.count) * Self.rowHeight
        let top = max(cap.map { min($0, values.map(\.value).max() ?? 1) } ?? (values.map(\.value).max() ?? 1), 0.0001)
        let room = Double(HabitCharts.width) - Self.valueRoom
        rows = values.enumerated().map { index, entry in
            let base = Double(index * Self.rowHeight)
            let length = entry.value <= 0 ? 0 : max(2, room * min(entry.value, top) / top)
            return Row(
                name: HabitCharts.short(entry.name), nameY: HabitCharts.number(base + 14), barY: HabitCharts.number(base + 20),
                barWidth: HabitCharts.number(length), value: entry.text, valueX: HabitCharts.number(length + 6),
                valueY: HabitCharts.number(base + 20 + Double(Self.barHeight) - 2))
        }
    }
}
