extension ItemInput {
    /// The fields typed here that a folder of `kind` does not keep (a shopping list has no due
    /// date, reminder or status; a stock list has no urgency), in the form's order. Saving in
    /// such a folder would drop them, so the editor asks first.
    public func fieldsNotKept(in kind: FolderKind) -> [ItemField] {
        ItemField.formOrder.filter { !$0.fits(kind) && $0.isSet(in: self) }
    }

    /// Clears what `fieldsNotKept(in:)` names: the person chose to save without it.
    public mutating func dropFieldsNotKept(in kind: FolderKind) {
        let defaults = ItemInput()
        for field in fieldsNotKept(in: kind) { field.set(field.text(in: defaults), in: &self) }
    }
}
