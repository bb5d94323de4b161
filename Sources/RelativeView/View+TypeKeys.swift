import RelativeViewCore

extension View {
    /// The exact type ids of `types` keyed by `String(describing:)`, the relative-view group key.
    /// Classes never registered have no nodes, so they are left out: they match nothing.
    @usableFromInline
    static func _typeKeys(_ types: [View.Type]) -> [TypeID: String] {
        Dictionary(TypeRegistry.shared.existingTypeIDsAndNames(of: types), uniquingKeysWith: { a, _ in a })
    }
}
