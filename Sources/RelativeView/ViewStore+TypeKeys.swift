import RelativeViewCore

extension ViewStore {
    /// The keys of a query by `types`: each class's exact type id under its
    /// `String(describing:)`, the relative-view group key (classes never registered have no
    /// nodes, so they are left out: they match nothing). Kept for the next query that asks
    /// for the same classes in the same order: making them takes
    /// the registry's lock, a dictionary and the names, several times the cost of a grouping
    /// of a few siblings. Kept only when every class is registered: a class's id and name
    /// never change once it is, while an unregistered class could be registered later (a
    /// view of it joining the tree) and then match.
    ///
    /// - Complexity: O(types.count)
    func typeKeys(_ types: [View.Type]) -> _TypeKeys<String> {
        if let kept = keptTypeKeys, kept.types.count == types.count,
           zip(kept.types, types).allSatisfy({ $0 == ObjectIdentifier($1) }) {
            return kept.keys
        }
        let found = TypeRegistry.shared.existingTypeIDsAndNames(of: types)
        let keys = _TypeKeys(Dictionary(found, uniquingKeysWith: { a, _ in a }))
        if found.count == types.count { keptTypeKeys = (types.map(ObjectIdentifier.init), keys) }
        return keys
    }
}
