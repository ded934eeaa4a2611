extension ItemInput {
    /// The fields typed here that a folder of `kind` does not keep (a shopping list has no due
    /// date, reminder or status; a stock list has no urgency), by form field name. Saving in
    /// such a folder would drop them, so the editor asks first.
    public func fieldsNotKept(in kind: FolderKind) -> [String] {
        switch kind {
        case .stock:
            return urgent ? ["urgent"] : []
        case .shopping:
            var fields: [String] = []
            if !due.trimmingCharacters(in: .whitespaces).isEmpty { fields.append("due") }
            if !remindAt.trimmingCharacters(in: .whitespaces).isEmpty { fields.append("remind_at") }
            if status != ItemInput().status { fields.append("status") }
            return fields
        }
    }
}

extension ItemInput {
    /// Clears what `fieldsNotKept(in:)` names: the person chose to save without it.
    public mutating func dropFieldsNotKept(in kind: FolderKind) {
        let defaults = ItemInput()
        for field in fieldsNotKept(in: kind) {
            switch field {
            case "due": due = defaults.due
            case "remind_at": remindAt = defaults.remindAt
            case "status": status = defaults.status
            case "urgent": urgent = defaults.urgent
            default: break
            }
        }
    }
}
