/// Frames, bounds origins and coordinate conversion, UIKit's model without transforms.
///
/// A node's frame (origin and size) is in its parent's coordinate space; its bounds have the
/// frame's size and an origin of their own, which shifts where its children appear. A point
/// `p` in a node's space is `p - boundsOrigin + frameOrigin` in its parent's space.
///
/// Geometry writes do not touch the links, so they leave the Euler index as it is: laying out a
/// tree between queries costs no rebuild. Points and sizes are `SIMD2<Double>` (x, y) and
/// (width, height), so this module needs no Foundation.
extension ViewTree {
    /// The origin of a node's frame, in its parent's space (zero until set).
    ///
    /// - Complexity: O(1)
    @inlinable
    public func frameOrigin(of node: NodeID) -> SIMD2<Double> {
        _storage._geometry(\.frameOrigin, of: node)
    }

    /// The size of a node's frame, which is also the size of its bounds (zero until set).
    ///
    /// - Complexity: O(1)
    @inlinable
    public func frameSize(of node: NodeID) -> SIMD2<Double> {
        _storage._geometry(\.frameSize, of: node)
    }

    /// The origin of a node's bounds: the point of its own space drawn at its frame's origin.
    ///
    /// - Complexity: O(1)
    @inlinable
    public func boundsOrigin(of node: NodeID) -> SIMD2<Double> {
        _storage._geometry(\.boundsOrigin, of: node)
    }

    /// Moves a node's frame; its size and bounds origin stay. The index is not touched.
    ///
    /// - Complexity: O(1), amortized; the first geometry write to a tree allocates its
    ///   geometry columns, O(slotCount).
    public mutating func setFrameOrigin(_ origin: SIMD2<Double>, of node: NodeID) {
        let s = _geometryStorage(node)
        s.frameOrigin[Int(node.index)] = origin
    }

    /// Resizes a node's frame (and bounds), keeping the frame's origin. The index is not touched.
    ///
    /// - Complexity: as ``setFrameOrigin(_:of:)``.
    public mutating func setFrameSize(_ size: SIMD2<Double>, of node: NodeID) {
        let s = _geometryStorage(node)
        s.frameSize[Int(node.index)] = size
    }

    /// Sets a node's bounds origin, which shifts its children; its frame stays. The index is not touched.
    ///
    /// - Complexity: as ``setFrameOrigin(_:of:)``.
    public mutating func setBoundsOrigin(_ origin: SIMD2<Double>, of node: NodeID) {
        let s = _geometryStorage(node)
        s.boundsOrigin[Int(node.index)] = origin
    }

    /// Converts a point from the space of node `a` to the space of node `b`, which must be in
    /// the same tree. The path goes up from `a` to the two nodes' lowest common ancestor and
    /// down to `b`: nodes above it are never visited.
    ///
    /// Traps if `a` and `b` are in different trees of the forest.
    /// - Complexity: O(depth(a) + depth(b) - 2 depth(lca)).
    public func convert(_ point: SIMD2<Double>, from a: NodeID, to b: NodeID) -> SIMD2<Double> {
        let s = _storage
        s.check(a)
        s.check(b)
        if a == b { return point }
        var p = point
        // Climb from `a` until the node holds `b`: that node is the lowest common ancestor,
        // and the climb has already summed the translations on a's side.
        var x = a.index
        while x != b.index && !s.tour.isProperAncestor(x, b.index) {
            p += s._translation(of: x)
            x = s.parent[Int(x)]
            precondition(x != _TreeStorage.none, "cannot convert between \(a) and \(b): they are in different trees")
        }
        let lca = x
        var y = b.index
        while y != lca {
            p -= s._translation(of: y)
            y = s.parent[Int(y)]
        }
        return p
    }

    /// The storage, made unique, with geometry columns that reach `node`'s slot; unlike
    /// `_mutableStorage()` it keeps the index, since geometry does not change the links.
    @usableFromInline
    mutating func _geometryStorage(_ node: NodeID) -> _TreeStorage {
        _makeStorageUniqueAndOwned()
        let s = _storage
        s.check(node)
        s._growGeometry(toInclude: Int(node.index))
        return s
    }
}

extension _TreeStorage {
    /// A node's entry in a geometry column (zero past the column's end).
    @inlinable @inline(__always)
    func _geometry(_ column: KeyPath<_TreeStorage, [SIMD2<Double>]>, of node: NodeID) -> SIMD2<Double> {
        check(node)
        let i = Int(node.index)
        let values = self[keyPath: column]
        return i < values.count ? values[i] : .zero
    }

    /// What a point gains on its way from slot `x`'s space to its parent's space.
    @inlinable @inline(__always)
    func _translation(of x: Int32) -> SIMD2<Double> {
        let i = Int(x)
        guard i < frameOrigin.count else { return .zero }
        return frameOrigin[i] - boundsOrigin[i]
    }

    /// Extends the geometry columns with zeros to cover every slot up to `i` (to the whole
    /// arena, so that a tree being laid out grows them once, not one slot at a time).
    func _growGeometry(toInclude i: Int) {
        guard i >= frameOrigin.count else { return }
        let missing = slotCount - frameOrigin.count
        frameOrigin.append(contentsOf: repeatElement(.zero, count: missing))
        frameSize.append(contentsOf: repeatElement(.zero, count: missing))
        boundsOrigin.append(contentsOf: repeatElement(.zero, count: missing))
    }

    /// Zeroes a freed slot's geometry, so that a node made in it later starts at zero.
    func _clearGeometry(at n: Int) {
        frameOrigin[n] = .zero
        frameSize[n] = .zero
        boundsOrigin[n] = .zero
    }

    /// Whether slot `x` has any non-zero geometry.
    func _hasGeometry(at x: Int32) -> Bool {
        let i = Int(x)
        return i < frameOrigin.count && (frameOrigin[i] != .zero || frameSize[i] != .zero || boundsOrigin[i] != .zero)
    }
}
