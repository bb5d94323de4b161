import Synchronization

/// One value derived from one version of a tree (see ``_TreeStorage/version``), kept beside
/// the tree's columns so that every query of that version shares it: a query engine's
/// document-order index, built on its first use. A value derived from another version is
/// never returned: a mutation changes the version, and the next request builds anew.
///
/// The value is an object of the deriving module's own type, so that this target needs to
/// know nothing of it. Two threads asking at once for a version not built yet may both
/// build it; the last to finish is kept, and each gets a value of the same version.
package final class _DerivedCache: Sendable {
    private let slot = Mutex<(version: UInt64, value: (any AnyObject & Sendable)?)>((0, nil))

    package init() {}

    /// The value derived from `version`: the one kept if it was derived from that version
    /// and is a `T`, else `make()`'s, kept for the next request.
    ///
    /// - Complexity: O(1), plus `make()` when the version is new.
    package func value<T: AnyObject & Sendable>(for version: UInt64, _ make: () -> T) -> T {
        if let kept = slot.withLock({ $0.version == version ? $0.value as? T : nil }) { return kept }
        let made = make()
        slot.withLock { $0 = (version, made) }
        return made
    }
}
