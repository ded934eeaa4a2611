import GRDB

/// A value kept as text, in its column and in documents (exports, backups' manifests): read from
/// exactly that text (`init?(_:)`) and written back as it (`description`), so a column and a
/// document hold the text they always had. Text that is not such a value fails the read: GRDB's
/// error naming the column and the value, or Codable's naming the key.
public protocol StoredAsText: DatabaseValueConvertible, Codable, LosslessStringConvertible {
    /// What the text looks like, for the message when it is not that ("a day such as 2026-11-22").
    static var textExample: String { get }
}

extension StoredAsText {
    public var databaseValue: DatabaseValue { description.databaseValue }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        String.fromDatabaseValue(dbValue).flatMap(Self.init)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let value = Self(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "\"\(text)\" is not \(Self.textExample)")
        }
        self = value
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
