import RelativeViewCore

extension View {
    /// The exact type ids of `types` keyed by `String(describing:)`, the relative-view group key.
    /// Classes never registered have no nodes, so they are left out: they match nothing.
    @usableFromInline
    static func _typeKeys(_ types: [View.Type]) -> [TypeID: String] {
        var keys: [TypeID: String] = [:]
        for type in types {
            if let id = TypeRegistry.shared.existingTypeID(for: type) { keys[id] = String(describing: type) }
        }
        return keys
    }
}
