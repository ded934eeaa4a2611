import Tagged
import TemplateRuntime

/// A typed id (`Item.ID`, `Folder.ID`, …) in a template is written as its number, so view models
/// keep the id's type up to the page.
extension HTMLWriter {
    mutating func text<Record>(_ value: Tagged<Record, Int64>) { text(value.rawValue) }
    mutating func text<Record>(_ value: Tagged<Record, Int64>?) { text(value?.rawValue) }
}
