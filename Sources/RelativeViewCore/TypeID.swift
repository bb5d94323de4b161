/// The identity of a view type in the process-wide ``TypeRegistry``.
///
/// A type id stands either for one Swift class (matched exactly, as the relative-view
/// API does) or for a type name with no class behind it (an XML element, a JSON kind).
public struct TypeID: Hashable, Sendable, CustomStringConvertible {
    /// The dense number of this type in its registry, from 0.
    ///
    /// - Complexity: O(1)
    public let rawValue: Int32

    @inlinable @inline(__always)
    package init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// The type's name as recorded by the shared registry.
    ///
    /// - Complexity: O(1) (one uncontended lock).
    public var description: String { TypeRegistry.shared.name(of: self) }
}

extension TypeID {
    /// The id of raw value `rawValue` (a writer's or a loader's, which read raw values
    /// from columns); traps if the registry has no such id.
    package static func registered(rawValue: Int32) -> TypeID {
        precondition(rawValue >= 0 && Int(rawValue) < TypeRegistry.shared.count, "TypeID \(rawValue) is not in this registry")
        return TypeID(rawValue: rawValue)
    }
}
