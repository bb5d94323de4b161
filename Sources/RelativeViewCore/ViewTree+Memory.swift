import RelativeViewEngine
extension ViewTree {
    /// The bytes held by the tree's columns (the geometry and attribute columns too, once written) and its index, from their capacities
    /// (buffer headers and the allocator's rounding aside). Columns a tree loaded from a
    /// snapshot file reads in place are the file's pages, not the tree's: they count for
    /// nothing here until the tree's first change copies them.
    ///
    /// - Complexity: O(1), plus O(wide tags) for the side table.
    public var memoryFootprint: Int {
        let s = _storage
        var bytes = s.parent.capacity * MemoryLayout<Int32>.stride
            + s.generation.capacity * MemoryLayout<UInt32>.stride
            + s.typeID.capacity * MemoryLayout<Int32>.stride
            + s.narrowTag.capacity * MemoryLayout<Int32>.stride
            + s.wideTags.capacity * (MemoryLayout<Int32>.stride + MemoryLayout<Int>.stride)
            + (s.frameOrigin.capacity + s.frameSize.capacity + s.boundsOrigin.capacity) * MemoryLayout<SIMD2<Double>>.stride

        bytes += s.attributes.reduce(0) { $0 + $1.memoryFootprint } + s.content.memoryFootprint
        let t = s.tour
        bytes += (t.token.capacity + t.tag.capacity + t.type.capacity + t.count.capacity + t.next.capacity + t.previous.capacity) * MemoryLayout<Int32>.stride
            + t.label.capacity * MemoryLayout<UInt64>.stride
            + t.span.capacity * MemoryLayout<_TourBlocks.Span>.stride
        return bytes
    }
}

extension ViewTree {
    /// The index's blocks: in the list, in all (free and waiting ones too), and the tokens
    /// they hold (two per live node), with the room the columns have; for reports.
    ///
    /// - Complexity: O(1)
    package var _indexFigures: (listed: Int, blocks: Int, tokens: Int, slotCapacity: Int, nodeCapacity: Int) {
        let t = _storage.tour
        return (t.liveBlocks, t.count.count, 2 * _storage.liveCount, t.token.capacity, _storage.parent.capacity)
    }
}

extension ViewTree {
    /// The bytes of the tree's columns and index arrays that are mappings of their own
    /// rather than heap memory (those of 128 KiB or more): what an allocator's statistics
    /// miss, for reports that measure memory with them.
    ///
    /// - Complexity: O(1)
    package var _mappedColumnBytes: Int {
        let s = _storage
        let t = s.tour
        return s.parent.mappedBytes + s.generation.mappedBytes + s.typeID.mappedBytes + s.narrowTag.mappedBytes
            + t.token.mappedBytes + t.tag.mappedBytes + t.type.mappedBytes + t.count.mappedBytes + t.next.mappedBytes
            + t.previous.mappedBytes + t.label.mappedBytes + t.span.mappedBytes
    }
}
