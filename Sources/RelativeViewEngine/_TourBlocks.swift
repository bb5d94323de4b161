/// The Euler tour of a forest kept in order under mutation: the live index's structure
/// (see `docs/live-index.md`).
///
/// Every node has an *enter* token (its index) and an *exit* token (its bitwise complement);
/// a node's descendants are exactly the tokens between its two, its children are the runs
/// between them one level down, and its siblings are its run's neighbours. The tour lives in
/// blocks of ``capacity`` slots, each block a run of the tour packed at its start, linked in
/// tour order; each block carries a 64-bit order label, kept increasing along the list by
/// Bender, Cole, Demaine, Farach-Colton and Zito's relabeling (see `makeRoom(after:for:)`),
/// so two positions compare by offset within a block, else by their blocks' labels. A
/// node's two positions are kept in `span`, and rewritten whenever its tokens move.
///
/// Enter slots carry copies of the node's narrow tag and type, so a scan of a subtree's
/// slots never reads a node column.
///
/// Costs, with B = ``capacity``: comparing two positions O(1); inserting or removing k ≤ B
/// tokens O(B) slot moves plus O(log(blocks)) amortized label writes (worst case O(blocks));
/// moving a run of s tokens within one block O(B) plus that, and a longer one O(B + s/B)
/// (whole blocks are relinked and relabeled, not copied) plus that.
@usableFromInline
package struct _TourBlocks {
    /// Slots per block (a power of two: a position packs the offset in the low bits).
    @usableFromInline package static let capacity = 64
    @usableFromInline package static let offsetBits: UInt32 = 6
    /// The type copy of an exit slot: no type has it.
    @usableFromInline package static let exitType: Int32 = -1
    /// Labels stay below this, so that gaps never overflow.
    package let labelLimit: UInt64
    /// The label gap between blocks appended at the end.
    package let labelStep: UInt64

    /// A node's two positions: block number << ``offsetBits`` | offset.
    @usableFromInline
    package struct Span: BitwiseCopyable {
        @usableFromInline package var enter: UInt32
        @usableFromInline package var exit: UInt32

        @inlinable package init(enter: UInt32, exit: UInt32) {
            self.enter = enter
            self.exit = exit
        }
    }

    /// Per slot (block * capacity + offset): the token, and for an enter token the node's tag and type.
    @usableFromInline package var token: _Column<Int32> = []
    @usableFromInline package var tag: _Column<Int32> = []
    @usableFromInline package var type: _Column<Int32> = []
    /// Per block.
    @usableFromInline package var count: _Column<Int32> = []
    @usableFromInline package var next: _Column<Int32> = []
    @usableFromInline package var previous: _Column<Int32> = []
    @usableFromInline package var label: _Column<UInt64> = []
    @usableFromInline package var head: Int32 = -1
    @usableFromInline package var tail: Int32 = -1
    /// The number of blocks in the list (not free).
    @usableFromInline package var liveBlocks = 0
    /// Free blocks, linked both ways through `next` and `previous` (so that
    /// ``exchangeBlocks(_:_:)`` can move one).
    package var freeBlocks: Int32 = -1
    /// The sweep's place: the physical block that the list successor of the block just
    /// before it should occupy (see ``sweep(swaps:steps:)``).
    package var sweepCursor = 0
    /// Calls of ``sweep(swaps:steps:period:)`` so far (wrapping), for its period.
    package var sweepTick = 0
    /// Per node slot (not per index position): where its two tokens are.
    @usableFromInline package var span: _Column<Span> = []
    /// Blocks that ``cutRun(of:unlessWithin:)`` took out of the list and whose nodes are not
    /// freed yet, linked both ways through `next` and `previous`, oldest first; ``reclaim(tokens:_:)`` frees them a
    /// few at a time. -1 when there are none.
    @usableFromInline package var pendingHead: Int32 = -1
    package var pendingTail: Int32 = -1
    /// The nodes whose enter token is in a pending block.
    @usableFromInline package var pendingNodes = 0
    /// A removed run within this many blocks goes at once; a longer one is cut (see
    /// `ViewTree.removeSubtree(_:)`). At least 1; tests set 1 to cut every longer run.
    package var blocksRemovedAtOnce = 8
    /// The label of a pending block: no block in the list has it (labels stay below
    /// ``labelLimit``), so a node is pending when its enter token's block has it.
    @usableFromInline package static let pendingLabel = UInt64.max

    /// An empty tour whose block labels stay below 2^`labelBits` (tests use fewer bits to
    /// force relabeling). Blocks appended at the end are 2^(labelBits - 20) apart, so with
    /// 62 bits the first 2^20 of them (2^26 slots) spread over the whole label space: a
    /// region crowded by inserts is then relabeled locally, where labels packed at the
    /// bottom of the space would make the first crowding relabel every block.
    package init(labelBits: Int = 62) {
        precondition(labelBits >= 8 && labelBits <= 62, "label bits \(labelBits) out of 8 ... 62")
        labelLimit = 1 << UInt64(labelBits)
        labelStep = max(4, labelLimit >> 20)
    }

    /// The same tour with every array in memory of its own (see ``_Column``).
    ///
    /// - Complexity: O(slots + blocks)
    package func copied() -> _TourBlocks {
        var copy = self
        copy.token = token.copied()
        copy.tag = tag.copied()
        copy.type = type.copied()
        copy.count = count.copied()
        copy.next = next.copied()
        copy.previous = previous.copied()
        copy.label = label.copied()
        copy.span = span.copied()
        return copy
    }

    // MARK: Positions

    @inlinable @inline(__always)
    package static func block(_ p: UInt32) -> Int { Int(p >> offsetBits) }

    @inlinable @inline(__always)
    package static func offset(_ p: UInt32) -> Int { Int(p & UInt32(capacity - 1)) }

    @inlinable @inline(__always)
    package static func position(_ block: Int, _ offset: Int) -> UInt32 {
        UInt32(block) << offsetBits | UInt32(offset)
    }

    /// A node's two positions in 64 bits: enter in the low 32, exit in the high 32.
    @inlinable @inline(__always)
    package static func packed(_ span: Span) -> Int {
        Int(bitPattern: UInt(span.enter) | UInt(span.exit) << 32)
    }

    /// Whether position `p` comes before position `q` in the tour.
    @inlinable @inline(__always)
    package func precedes(_ p: UInt32, _ q: UInt32) -> Bool {
        let (bp, bq) = (Self.block(p), Self.block(q))
        return bp == bq ? p < q : label[bp] < label[bq]
    }

    /// Whether node `a` is a proper ancestor of node `b` (both live).
    @inlinable @inline(__always)
    package func isProperAncestor(_ a: Int32, _ b: Int32) -> Bool {
        let s = span[Int(a)]
        return encloses(s.enter, s.exit, span[Int(b)].enter)
    }

    /// Whether position `p` lies strictly between positions `enter` and `exit` (a node's two).
    @inlinable @inline(__always)
    package func encloses(_ enter: UInt32, _ exit: UInt32, _ p: UInt32) -> Bool {
        // A subtree within one block (most of them): offsets alone decide.
        if Self.block(enter) == Self.block(exit) {
            return Self.block(p) == Self.block(enter) && enter < p && p < exit
        }
        return precedes(enter, p) && precedes(p, exit)
    }

    /// The slot index of position `p`.
    @inlinable @inline(__always)
    package static func slot(_ p: UInt32) -> Int { block(p) &* capacity &+ offset(p) }

    /// Calls `body` with the slots from position `from` (or just after it, if `inclusive`
    /// is false) up to, not including, position `to` (`from` precedes `to`), block by
    /// block: each call gets one block's run of slot indices.
    @inlinable
    package func forEachRun(from: UInt32, inclusive: Bool = true, to: UInt32, _ body: (Range<Int>) throws -> Void) rethrows {
        var b = Self.block(from)
        var o = Self.offset(from) + (inclusive ? 0 : 1)
        let lastBlock = Self.block(to)
        while b != lastBlock {
            let base = b &* Self.capacity
            try body(base + o ..< base + Int(count[b]))
            b = Int(next[b])
            o = 0
        }
        let base = b &* Self.capacity
        try body(base + o ..< base + Self.offset(to))
    }

    /// ``forEachRun(from:inclusive:to:)`` over the slots strictly between node `x`'s two
    /// tokens: its descendants' tokens, block by block.
    @inlinable
    package func forEachDescendantRun(of x: Int32, _ body: (Range<Int>) throws -> Void) rethrows {
        let s = span[Int(x)]
        try forEachRun(from: s.enter, inclusive: false, to: s.exit, body)
    }

    /// The position just after `p` (`nil` past the end of the tour).
    @inlinable
    package func after(_ p: UInt32) -> UInt32? {
        let b = Self.block(p)
        let o = Self.offset(p) + 1
        if o < Int(count[b]) { return Self.position(b, o) }
        let n = next[b]
        return n < 0 ? nil : Self.position(Int(n), 0)
    }

    /// The position just before `p` (`nil` before the start of the tour).
    @inlinable
    package func before(_ p: UInt32) -> UInt32? {
        let b = Self.block(p)
        let o = Self.offset(p)
        if o > 0 { return Self.position(b, o - 1) }
        let q = previous[b]
        return q < 0 ? nil : Self.position(Int(q), Int(count[Int(q)]) - 1)
    }

    /// The token at position `p`.
    @inlinable
    package func token(at p: UInt32) -> Int32 { token[Self.slot(p)] }

    /// The slot just after position `p`, which must not be the tour's last.
    @inlinable @inline(__always)
    package func slot(after p: UInt32) -> Int {
        let b = Self.block(p)
        return Self.offset(p) + 1 < Int(count[b]) ? Self.slot(p) + 1 : Int(next[b]) &* Self.capacity
    }

    /// The token just after position `p`, which must not be the tour's last.
    @inlinable @inline(__always)
    package func token(after p: UInt32) -> Int32 { token[slot(after: p)] }

    /// The token just before position `p`, which must not be the tour's first.
    @inlinable @inline(__always)
    package func token(before p: UInt32) -> Int32 {
        if Self.offset(p) > 0 { return token[Self.slot(p) - 1] }
        let q = Int(previous[Self.block(p)])
        return token[q &* Self.capacity + Int(count[q]) - 1]
    }

    // MARK: Nodes

    /// Makes room for node slots below `n`.
    @usableFromInline
    package mutating func reserveNodes(_ n: Int) {
        if span.count < n { span.append(contentsOf: repeatElement(Span(enter: 0, exit: 0), count: n - span.count)) }
    }

    /// Makes room for `nodes` nodes in all, `live` of them live now: the position column
    /// exactly; blocks for the new nodes' tokens at a fill of 3/4 (a tree built by random
    /// appends settles near 0.7, a streamed one at 1), and an eighth of the present blocks
    /// more for the splits that moves make (cuts at a run's two ends and at its
    /// destination) before merges catch up, plus one per full block that the new nodes
    /// could split (a streamed build leaves every block full). O(blocks).
    package mutating func reserveCapacity(nodes: Int, live: Int) {
        span.reserveCapacity(nodes)
        let newTokens = 2 * max(0, nodes - live)
        let fill = Self.capacity * 3 / 4
        let full = count.reduce(0) { $0 + ($1 == Int32(Self.capacity) ? 1 : 0) }
        let blocks = count.count + (newTokens + fill - 1) / fill + liveBlocks / 8 + min(full, newTokens / 2)
        if blocks > count.count { reserveBlocks(blocks) }
    }

    /// Room for `blocks` blocks in every per-block and per-slot array.
    private mutating func reserveBlocks(_ blocks: Int) {
        count.reserveCapacity(blocks)
        next.reserveCapacity(blocks)
        previous.reserveCapacity(blocks)
        label.reserveCapacity(blocks)
        token.reserveCapacity(blocks * Self.capacity)
        tag.reserveCapacity(blocks * Self.capacity)
        type.reserveCapacity(blocks * Self.capacity)
    }

    /// Puts leaf `x` (with its tag and type copies) just before the token at position
    /// `before`, or at the end of the tour.
    package mutating func insertLeaf(_ x: Int32, tag t: Int32, type ty: Int32, before: UInt32?) {
        reserveNodes(Int(x) + 1)
        let hole = openHole(2, before: before)
        write(hole.0, token: x, tag: t, type: ty)
        write(hole.1, token: ~x, tag: Int32.min, type: Self.exitType)
    }

    /// Removes node `x`'s tokens and every token between them (its subtree), calling
    /// `removed` with each node whose enter token went, in tour order.
    package mutating func removeRun(of x: Int32, _ removed: (Int32) -> Void = { _ in }) {
        let s = span[Int(x)]
        deleteRange(from: s.enter, through: s.exit, removed)
    }

    /// Takes node `x`'s run (its subtree's tokens) out of the tour as whole blocks, unless
    /// the run lies within its first `blocks` blocks (then it returns `nil` and changes
    /// nothing: the caller removes the run at once). The blocks go to the pending chain,
    /// where ``reclaim(tokens:_:)`` frees their nodes over later calls; until then each of
    /// those nodes is ``isPending(_:)``. Returns the number of nodes taken out.
    ///
    /// - Complexity: O(B + blocks of the run) (the end blocks are split, the others are
    ///   relinked and marked), whatever the run's size in nodes.
    package mutating func cutRun(of x: Int32, unlessWithin blocks: Int) -> Int? {
        let lastBlock = Self.block(span[Int(x)].exit)
        var b = Self.block(span[Int(x)].enter)
        for _ in 0 ..< max(1, blocks) {
            if b == lastBlock { return nil }
            b = Int(next[b])
        }
        let (f, l) = unlinkRun(of: x)
        var tokens = 0
        var k = 0
        var c = f
        while true {
            label[c] = Self.pendingLabel
            tokens += Int(count[c])
            k += 1
            if c == l { break }
            c = Int(next[c])
        }
        next[l] = -1
        previous[f] = pendingTail
        if pendingTail >= 0 { next[Int(pendingTail)] = Int32(f) } else { pendingHead = Int32(f) }
        pendingTail = Int32(l)
        liveBlocks -= k
        pendingNodes += tokens / 2
        return tokens / 2
    }

    /// Whether node `x` (a slot that is not free) was taken out by
    /// ``cutRun(of:unlessWithin:)`` and is waiting to be freed. O(1).
    @inlinable @inline(__always)
    package func isPending(_ x: Int32) -> Bool {
        label[Self.block(span[Int(x)].enter)] == Self.pendingLabel
    }

    /// Frees pending blocks, oldest first, until about `budget` tokens are gone (a whole
    /// block at a time) or none is left, calling `freed` with each node whose enter token
    /// was in one of them. O(budget + B).
    package mutating func reclaim(tokens budget: Int, _ freed: (Int32) -> Void) {
        var left = budget
        while pendingHead >= 0 && left > 0 {
            let b = Int(pendingHead)
            let base = b * Self.capacity
            let n = Int(count[b])
            for i in base ..< base + n where token[i] >= 0 {
                freed(token[i])
                pendingNodes -= 1
            }
            left -= n
            pendingHead = next[b]
            if pendingHead >= 0 { previous[Int(pendingHead)] = -1 } else { pendingTail = -1 }
            count[b] = 0
            pushFree(b)
        }
    }

    /// Appends a token at the end of the tour (the streaming builder's path): O(1) amortized.
    @inlinable
    package mutating func append(token t: Int32, tag g: Int32, type y: Int32) {
        if t >= 0 { reserveNodes(Int(t) + 1) }
        if tail < 0 || Int(count[Int(tail)]) == Self.capacity { _ = newBlock(after: tail) }
        let b = Int(tail)
        write(Self.position(b, Int(count[b])), token: t, tag: g, type: y)
        count[b] += 1
    }

    /// The number of tokens from node `x`'s enter token through its exit token: twice the
    /// size of its subtree. O(blocks the run spans).
    @inlinable
    package func runLength(of x: Int32) -> Int {
        let s = span[Int(x)]
        var n = 1
        forEachRun(from: s.enter, to: s.exit) { n += $0.count }
        return n
    }

    /// Removes node `x`'s two tokens only: its children's runs stay where they are, between
    /// its neighbours (for a root being dissolved, they become top-level runs). O(B) amortized.
    package mutating func removeTokens(of x: Int32) {
        let exit = span[Int(x)].exit
        deleteRange(from: exit, through: exit) { _ in }
        // The deletion may have merged blocks: read the enter position again.
        let enter = span[Int(x)].enter
        deleteRange(from: enter, through: enter) { _ in }
    }

    /// Moves node `x`'s run (its subtree's tokens) to just before the token `before`
    /// (outside the run), or to the end of the tour.
    ///
    /// A run within one block is copied (at most B tokens). A longer run is cut out as whole
    /// blocks (its two partial end blocks split off first) and relinked at the destination
    /// with new block labels: the positions of the tokens in its inner blocks do not change,
    /// so this costs O(B + blocks of the run), not O(run).
    package mutating func moveRun(of x: Int32, before: Int32?) {
        let s = span[Int(x)]
        // Already there (the run is followed by `before`, or is last in the tour): nothing
        // to do. An exchange of two adjacent siblings moves one run, not two.
        if after(s.exit).map(token(at:)) == before { return }
        if Self.block(s.enter) != Self.block(s.exit) {
            // Linking before the tour's first block is the one case the splice does not do.
            if before.map({ position(of: $0) }) != Self.position(Int(head), 0) {
                spliceRun(of: x, before: before)
                return
            }
        }
        copyRun(of: x, before: before)
    }

    /// ``moveRun(of:before:)`` for a run spanning blocks, by relinking whole blocks.
    private mutating func spliceRun(of x: Int32, before: Int32?) {
        // 1, 2. The run as whole blocks f ... l, out of the list.
        let (f, l) = unlinkRun(of: x)
        // 3. The block to link after: cut the destination's block before the destination.
        var a: Int
        if let before {
            let d = position(of: before)
            if Self.offset(d) == 0 {
                a = Int(previous[Self.block(d)])
                precondition(a >= 0, "splicing a run before the tour's first block")
            } else {
                a = Self.block(d)
                _ = splitBlock(a, at: Self.offset(d))
            }
        } else {
            a = Int(tail)
        }
        // 4. Relink f ... l after `a`, labelled evenly in one go.
        linkChain(f, l, after: a)
        // 5. Merge sparse blocks at the two seams.
        if previous[f] >= 0 { mergeIfSparse(Int(previous[f])) }
        if count[l] > 0 && next[l] >= 0 { mergeIfSparse(l) }
    }

    /// Splits the end blocks of node `x`'s run (which spans more than one block) so that the
    /// run is whole blocks `first` ... `last`, takes those out of the list (their links to
    /// each other stay), and merges the blocks left on either side if they are sparse.
    /// O(B) amortized.
    private mutating func unlinkRun(of x: Int32) -> (first: Int, last: Int) {
        var f = Self.block(span[Int(x)].enter)
        if Self.offset(span[Int(x)].enter) > 0 { f = splitBlock(f, at: Self.offset(span[Int(x)].enter)) }
        let exit = span[Int(x)].exit
        let l = Self.block(exit)
        if Self.offset(exit) + 1 < Int(count[l]) { _ = splitBlock(l, at: Self.offset(exit) + 1) }
        let (p, n) = (previous[f], next[l])
        if p >= 0 { next[Int(p)] = n } else { head = n }
        if n >= 0 { previous[Int(n)] = p } else { tail = p }
        if p >= 0 { mergeIfSparse(Int(p)) }
        return (f, l)
    }

    /// Moves tokens `o` ..< count of block `b` to a new block linked after it; returns the new block.
    private mutating func splitBlock(_ b: Int, at o: Int) -> Int {
        let c = newBlock(after: Int32(b))
        let n = Int(count[b])
        moveSlots(from: b * Self.capacity + o, to: c * Self.capacity, count: n - o)
        count[c] = Int32(n - o)
        count[b] = Int32(o)
        return c
    }

    /// ``moveRun(of:before:)`` by copying the run's tokens out and in.
    private mutating func copyRun(of x: Int32, before: Int32?) {
        let n = runLength(of: x)
        // `before` is a token, not a position: positions change as the run leaves.
        withUnsafeTemporaryAllocation(of: (Int32, Int32, Int32).self, capacity: n) { moved in
            var k = 0
            let s = span[Int(x)]
            forEachRun(from: s.enter, to: s.exit) { run in
                for i in run {
                    moved[k] = (token[i], tag[i], type[i])
                    k += 1
                }
            }
            moved[k] = (~x, Int32.min, Self.exitType)
            deleteRange(from: s.enter, through: s.exit) { _ in }
            k = 0
            while k < n {
                let chunk = min(Self.capacity, n - k)
                var p = openHole(chunk, before: before.map(position(of:))).0
                for j in 0 ..< chunk {
                    let (t, g, y) = moved[k + j]
                    write(p, token: t, tag: g, type: y)
                    p += 1
                }
                k += chunk
            }
        }
    }

    /// The current position of a token.
    @inlinable
    package func position(of token: Int32) -> UInt32 {
        token >= 0 ? span[Int(token)].enter : span[Int(~token)].exit
    }

    /// Sets the tag copy of node `x`.
    @inlinable
    package mutating func setTag(_ t: Int32, of x: Int32) { tag[Self.slot(span[Int(x)].enter)] = t }

    /// Sets the type copy of node `x`.
    @inlinable
    package mutating func setType(_ ty: Int32, of x: Int32) { type[Self.slot(span[Int(x)].enter)] = ty }

    // MARK: Slots

    @inlinable @inline(__always)
    mutating func write(_ p: UInt32, token t: Int32, tag g: Int32, type y: Int32) {
        let i = Self.slot(p)
        token[i] = t
        tag[i] = g
        type[i] = y
        if t >= 0 { span[Int(t)].enter = p } else { span[Int(~t)].exit = p }
    }

    /// Moves slots `from ..< from + n` to `to ..< to + n` (the ranges may overlap), keeping
    /// their nodes' spans in step: one memmove per column, then one span write per token.
    /// (A slot's index is its position: block * capacity + offset = block << offsetBits | offset.)
    private mutating func moveSlots(from: Int, to: Int, count n: Int) {
        guard n > 0, from != to else { return }
        token.withUnsafeMutableBufferPointer { t in
        tag.withUnsafeMutableBufferPointer { g in
        type.withUnsafeMutableBufferPointer { y in
        span.withUnsafeMutableBufferPointer { sp in
            let bytes = n * MemoryLayout<Int32>.stride
            UnsafeMutableRawPointer(t.baseAddress! + to).copyMemory(from: t.baseAddress! + from, byteCount: bytes)
            UnsafeMutableRawPointer(g.baseAddress! + to).copyMemory(from: g.baseAddress! + from, byteCount: bytes)
            UnsafeMutableRawPointer(y.baseAddress! + to).copyMemory(from: y.baseAddress! + from, byteCount: bytes)
            for i in to ..< to + n {
                let k = t[i]
                if k >= 0 { sp[Int(k)].enter = UInt32(truncatingIfNeeded: i) } else { sp[Int(~k)].exit = UInt32(truncatingIfNeeded: i) }
            }
        }}}}
    }

    /// Opens `k` (at most ``capacity``) consecutive empty positions just before position
    /// `before` (or at the end of the tour), within one block, and returns the first and last.
    private mutating func openHole(_ k: Int, before: UInt32?) -> (UInt32, UInt32) {
        precondition(k >= 1 && k <= Self.capacity, "a hole of \(k) tokens")
        var b: Int
        var o: Int
        if let before {
            (b, o) = (Self.block(before), Self.offset(before))
        } else {
            if tail < 0 || Int(count[Int(tail)]) + k > Self.capacity { _ = newBlock(after: tail) }
            b = Int(tail)
            o = Int(count[b])
        }
        var n = Int(count[b])
        if n + k > Self.capacity && k <= Self.capacity / 2 && shiftToNeighbour(b, at: &o, for: k) {
            n = Int(count[b])
        } else if n + k > Self.capacity && k <= Self.capacity / 2 {
            // Split in halves, as a B-tree does, so that blocks stay at least half full; the
            // hole goes into the half that holds `o`. Here n > capacity / 2, so both halves
            // keep tokens, and either has room for the hole.
            let c = newBlock(after: Int32(b))
            let keep = n / 2
            moveSlots(from: b * Self.capacity + keep, to: c * Self.capacity, count: n - keep)
            count[c] = Int32(n - keep)
            count[b] = Int32(keep)
            if o > keep {
                b = c
                o -= keep
            }
            n = Int(count[b])
        } else if n + k > Self.capacity {
            // A big hole (a chunk of a moved run): the tokens from `o` on go to a block of
            // their own, and so does the hole if it still does not fit.
            if o < n {
                let d = newBlock(after: Int32(b))
                moveSlots(from: b * Self.capacity + o, to: d * Self.capacity, count: n - o)
                count[d] = Int32(n - o)
                count[b] = Int32(o)
                n = o
            }
            if o + k > Self.capacity {
                b = newBlock(after: Int32(b))
                o = 0
                n = 0
            }
        }
        // Shift the tail of the block right by k.
        moveSlots(from: b * Self.capacity + o, to: b * Self.capacity + o + k, count: n - o)
        count[b] = Int32(n + k)
        return (Self.position(b, o), Self.position(b, o + k - 1))
    }

    /// Makes room for `k` tokens at offset `o` of the full block `b` by moving some of its
    /// tokens to a neighbour with room (at least a quarter of a block free), as a B*-tree
    /// does before it splits: the tokens after `o` to the front of the next block, or those
    /// before `o` to the end of the previous one (then `o` moves down with them). Splitting
    /// every full block in halves leaves blocks about 69% full under random inserts; shifting
    /// first keeps them fuller, and makes no new block. Returns whether it made the room.
    /// O(B).
    private mutating func shiftToNeighbour(_ b: Int, at o: inout Int, for k: Int) -> Bool {
        let n = Int(count[b])
        let need = n + k - Self.capacity
        let nb = Int(next[b])
        if nb >= 0 {
            let room = Self.capacity - Int(count[nb])
            let m = min(room / 2, n - o)
            if room >= Self.capacity / 4 && m >= need {
                moveSlots(from: nb * Self.capacity, to: nb * Self.capacity + m, count: Int(count[nb]))
                moveSlots(from: b * Self.capacity + n - m, to: nb * Self.capacity, count: m)
                count[nb] += Int32(m)
                count[b] -= Int32(m)
                return true
            }
        }
        let pb = Int(previous[b])
        if pb >= 0 {
            let room = Self.capacity - Int(count[pb])
            let m = min(room / 2, o)
            if room >= Self.capacity / 4 && m >= need {
                moveSlots(from: b * Self.capacity, to: pb * Self.capacity + Int(count[pb]), count: m)
                moveSlots(from: b * Self.capacity + m, to: b * Self.capacity, count: n - m)
                count[pb] += Int32(m)
                count[b] -= Int32(m)
                o -= m
                return true
            }
        }
        return false
    }

    /// Deletes the tokens from position `from` through position `through` (inclusive),
    /// compacting the blocks they leave and freeing emptied ones.
    private mutating func deleteRange(from: UInt32, through: UInt32, _ removed: (Int32) -> Void) {
        var b = Self.block(from)
        var o = Self.offset(from)
        let first = b
        let last = Self.block(through)
        defer {
            // Merge only once the range is gone: a merge moves tokens the loop still had to visit.
            // A live block has a token; a freed one has none.
            if count[first] > 0 {
                if previous[first] >= 0 { mergeIfSparse(Int(previous[first])) }
                if count[first] > 0 { mergeIfSparse(first) }
            }
            if last != first && count[last] > 0 { mergeIfSparse(last) }
        }
        while true {
            let end = b == last ? Self.offset(through) + 1 : Int(count[b])
            let base = b * Self.capacity
            for i in o ..< end where token[base + i] >= 0 { removed(token[base + i]) }
            let nextBlock = Int(next[b])
            let n = Int(count[b])
            // Close the gap: the slots after `end` move down to `o`.
            moveSlots(from: base + end, to: base + o, count: n - end)
            count[b] = Int32(n - (end - o))
            let done = b == last
            if count[b] == 0 { freeBlock(b) }
            if done { return }
            b = nextBlock
            o = 0
        }
    }

    /// Merges block `b` with its successor when one of them is under half full and both
    /// together fill at most three quarters of a block (the quarter left is room for
    /// inserts before the merged block splits again).
    private mutating func mergeIfSparse(_ b: Int) {
        let n = next[b]
        guard n >= 0 else { return }
        let (x, y) = (Int(count[b]), Int(count[Int(n)]))
        guard min(x, y) < Self.capacity / 2 && x + y <= Self.capacity * 3 / 4 else { return }
        moveSlots(from: Int(n) * Self.capacity, to: b * Self.capacity + x, count: y)
        count[b] = Int32(x + y)
        count[Int(n)] = 0
        freeBlock(Int(n))
    }

    // MARK: Blocks

    /// A new empty block linked after block `after` (-1: the list is empty), labelled between
    /// its neighbours.
    @usableFromInline
    mutating func newBlock(after: Int32) -> Int {
        let b: Int
        if freeBlocks >= 0 {
            b = Int(freeBlocks)
            freeBlocks = next[b]
            if freeBlocks >= 0 { previous[Int(freeBlocks)] = -1 }
        } else {
            b = count.count
            if b >= count.capacity || b >= label.capacity || b >= next.capacity || b >= previous.capacity
                || (b + 1) * Self.capacity > min(token.capacity, tag.capacity, type.capacity) {
                // Grow by an eighth, not by doubling: the slack stays under 1/8 of the
                // index, and the growth is still geometric (O(1) amortized per block).
                reserveBlocks(b + b / 8 + 16)
            }
            count.append(0)
            next.append(-1)
            previous.append(-1)
            label.append(0)
            token.append(contentsOf: repeatElement(0, count: Self.capacity))
            tag.append(contentsOf: repeatElement(0, count: Self.capacity))
            type.append(contentsOf: repeatElement(0, count: Self.capacity))
        }
        count[b] = 0
        liveBlocks += 1
        if after < 0 {
            precondition(head < 0, "a block before the head")
            (head, tail) = (Int32(b), Int32(b))
            (next[b], previous[b]) = (-1, -1)
            label[b] = labelStep
            return b
        }
        link(b, after: Int(after))
        return b
    }

    /// Links block `b` (not in the list) after block `a`, labelled between the two.
    private mutating func link(_ b: Int, after a: Int) {
        makeRoom(after: a, for: 1)
        let n = next[a]
        let upper = n < 0 ? min(labelLimit, label[a] + labelStep) : label[Int(n)]
        label[b] = label[a] + (upper - label[a]) / 2
        (next[b], previous[b]) = (n, Int32(a))
        next[a] = Int32(b)
        if n >= 0 { previous[Int(n)] = Int32(b) } else { tail = Int32(b) }
    }

    /// Links the chain of blocks `first` ... `last` (linked through `next`, not in the list)
    /// after block `a`, with labels spread evenly in the gap: one relabeling at most for the
    /// whole chain, not one per block.
    ///
    /// One walk down the chain's links (each load waits for the one before) lists its
    /// blocks; the labels are then written from the list, stores that do not wait on each
    /// other. O(blocks of the chain), plus the relabeling.
    private mutating func linkChain(_ first: Int, _ last: Int, after a: Int) {
        precondition(a >= 0, "a chain linked before the tour's first block")
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: liveBlocks) { chain in
            var k = 0
            next.withUnsafeBufferPointer { next in
                var c = first
                while true {
                    chain[k] = Int32(c)
                    k += 1
                    if c == last { break }
                    c = Int(next[c])
                }
            }
            makeRoom(after: a, for: k, minimumStep: chainStep)
            let n = next[a]
            let lower = label[a]
            let upper = n < 0 ? labelLimit : label[Int(n)]
            let step = (upper - lower) / UInt64(k + 1)
            precondition(step >= 1, "the tour's block labels are exhausted")
            label.withUnsafeMutableBufferPointer { label in
                var value = lower
                for j in 0 ..< k {
                    value += step
                    label[Int(chain[j])] = value
                }
            }
            // The links within the chain are its own.
            next[a] = Int32(first)
            previous[first] = Int32(a)
            next[last] = n
            if n >= 0 { previous[Int(n)] = Int32(last) } else { tail = Int32(last) }
        }
    }

    /// The least label gap that ``linkChain(_:_:after:)`` leaves between the blocks of a
    /// moved chain: with 62-bit labels 2^20, room for 20 inserts (halvings) between any two
    /// before a relabeling (fewer with the fewer bits tests use).
    private var chainStep: UInt64 { max(1, labelStep >> 22) }

    /// Makes room for `k` labels between block `a` and its successor (or the label limit):
    /// Bender, Cole, Demaine, Farach-Colton and Zito's relabeling ("Two simplified algorithms
    /// for maintaining order in a list", ESA 2002). When the gap is too small, it finds the
    /// smallest aligned label range around `a` of size 2^i whose blocks (plus the `k` to
    /// come) number at most (2/T)^i, with T = 1.5, and spreads those blocks evenly over it,
    /// leaving the `k` labels' room after `a`. O(log blocks) amortized label writes per
    /// inserted block; the worst case relabels every block (about n/32 writes at n nodes).
    ///
    /// A chain of blocks moved in one go (``linkChain(_:_:after:)``) asks for its labels
    /// `minimumStep` apart: placed as tightly as its gap allows, a long chain would be a
    /// dense cluster that the next insert among its blocks relabels whole (tens of thousands
    /// of blocks in one call), where room made now, around the destination, costs what
    /// walking the chain already costs.
    private mutating func makeRoom(after a: Int, for k: Int, minimumStep: UInt64 = 1) {
        let gapEnd = next[a] < 0 ? labelLimit : label[Int(next[a])]
        guard (gapEnd - label[a]) / UInt64(k + 1) < minimumStep else { return }
        let bits = UInt64(labelLimit.trailingZeroBitCount)
        // The range's blocks as the walks out from `a` meet them: those before `a` nearest
        // first, those after it nearest first. The labels are then written from these
        // lists, stores that do not wait on each other, not in a second walk of the links.
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: 2 * liveBlocks + 2) { found in
            let before = UnsafeMutableBufferPointer(rebasing: found[0 ..< liveBlocks + 1])
            let after = UnsafeMutableBufferPointer(rebasing: found[liveBlocks + 1 ..< 2 * liveBlocks + 2])
            var (lo, hi, left, right) = (a, a, 0, 0)
            var capacity = 1.0
            for i in UInt64(1) ... bits {
                let size: UInt64 = 1 << i
                let base = label[a] & ~(size - 1)
                while previous[lo] >= 0 && label[Int(previous[lo])] >= base {
                    lo = Int(previous[lo])
                    before[left] = Int32(lo)
                    left += 1
                }
                while next[hi] >= 0 && label[Int(next[hi])] - base < size {
                    hi = Int(next[hi])
                    after[right] = Int32(hi)
                    right += 1
                }
                capacity *= 4.0 / 3.0
                let wanted = left + 1 + right + k
                // The whole label space takes any count it has room for.
                guard Double(wanted) <= capacity || i == bits else { continue }
                let step = size / UInt64(wanted)
                // The whole label space takes any step of 2 or more.
                if step < (i == bits ? 2 : max(2, minimumStep)) {
                    precondition(i < bits, "the tour's block labels are exhausted")
                    continue
                }
                // Spread: the j-th block of the range gets the j-th of `wanted` evenly
                // spaced labels, skipping the `k` that follow `a`.
                label.withUnsafeMutableBufferPointer { label in
                    var slot: UInt64 = 0
                    for j in stride(from: left - 1, through: 0, by: -1) {
                        label[Int(before[j])] = base + slot * step + step / 2
                        slot += 1
                    }
                    label[a] = base + slot * step + step / 2
                    slot += UInt64(k) + 1
                    for j in 0 ..< right {
                        label[Int(after[j])] = base + slot * step + step / 2
                        slot += 1
                    }
                }
                return
            }
        }
    }

    private mutating func freeBlock(_ b: Int) {
        let (p, n) = (previous[b], next[b])
        if p >= 0 { next[Int(p)] = n } else { head = n }
        if n >= 0 { previous[Int(n)] = p } else { tail = p }
        count[b] = 0
        liveBlocks -= 1
        pushFree(b)
    }

    /// Puts block `b` (in no list, empty) first on the free list.
    private mutating func pushFree(_ b: Int) {
        next[b] = freeBlocks
        previous[b] = -1
        if freeBlocks >= 0 { previous[Int(freeBlocks)] = Int32(b) }
        freeBlocks = Int32(b)
    }

    // MARK: Locality

    /// Brings blocks into list order in memory, a bounded amount per call: the index keeps
    /// its own locality, so that walks along the list (scans of a subtree, the relinking of
    /// a long move, a relabeling) read memory in order without ``compact()``.
    ///
    /// The sweep puts the list's blocks at physical blocks 0, 1, 2 ... in list order: the
    /// block at ``sweepCursor`` should be the list successor of the block just before it
    /// (the list's head at 0). It takes up to `steps` such places, exchanging the wanted block
    /// with the one in the way (``exchangeBlocks(_:_:)``) at most `swaps` times, and only on
    /// every `period`-th call; a place already right costs a comparison. At the list's end, or when the block before the
    /// cursor left the list, it starts again from 0. Blocks that mutations insert behind
    /// the cursor are put in order by the next pass.
    ///
    /// - Complexity: O(steps + swaps × B).
    package mutating func sweep(swaps: Int, steps: Int, period: Int = 1) {
        sweepTick &+= 1
        var swapsLeft = sweepTick % max(1, period) == 0 ? swaps : 0
        for _ in 0 ..< steps {
            let want: Int32
            if sweepCursor == 0 {
                want = head
            } else {
                let p = sweepCursor - 1
                guard sweepCursor < count.count, count[p] > 0, label[p] != Self.pendingLabel else {
                    sweepCursor = 0
                    return
                }
                want = next[p]
            }
            guard want >= 0 else {
                sweepCursor = 0
                return
            }
            // The sweep packs the index as it orders it: two neighbours that fit in one
            // block (leaving room for inserts) become one, and a block left short of the
            // packing fill takes tokens from the front of the next.
            if sweepCursor > 0 && Int(count[sweepCursor - 1]) < Self.sweepFill {
                guard swapsLeft > 0 else { return }
                let p = sweepCursor - 1
                let w = Int(want)
                let (x, y) = (Int(count[p]), Int(count[w]))
                let m = min(y, Self.sweepFill - x)
                if m == y || m >= Self.capacity / 8 {
                    moveSlots(from: w * Self.capacity, to: p * Self.capacity + x, count: m)
                    moveSlots(from: w * Self.capacity + m, to: w * Self.capacity, count: y - m)
                    count[p] = Int32(x + m)
                    count[w] = Int32(y - m)
                    if m == y { freeBlock(w) }
                    swapsLeft -= 1
                    continue
                }
            }
            if Int(want) != sweepCursor {
                guard swapsLeft > 0 else { return }
                exchangeBlocks(Int(want), sweepCursor)
                swapsLeft -= 1
            }
            sweepCursor += 1
        }
    }

    /// The upkeep a mutation does, in bounded work: every other call one block exchange or
    /// packing of the sweep (``sweep(swaps:steps:period:)``, 16 places checked), on the
    /// calls between one move of the last block into a free one past the sweep's ordered
    /// part (so that free blocks gather at the end), then the free blocks at the end go
    /// (``trimFreeBlocks(limit:)``). O(B) plus O(1) system calls.
    package mutating func upkeep() {
        sweep(swaps: 1, steps: 16, period: 2)
        if sweepTick % 2 == 1, let last = count.indices.last, count[last] > 0,
           freeBlocks >= 0, Int(freeBlocks) >= sweepCursor, Int(freeBlocks) < last {
            exchangeBlocks(last, Int(freeBlocks))
        }
        trimFreeBlocks(limit: 16)
    }

    /// Takes up to `limit` free blocks off the end of memory (the sweep moves listed blocks
    /// to the front, and ``upkeep()`` the last block into a free one, so free ones gather
    /// there), and gives the columns' room back once more than an eighth of it is spare: memory
    /// that large removals freed returns to the system without a compaction. O(limit) plus
    /// O(1) system calls.
    package mutating func trimFreeBlocks(limit: Int) {
        var trimmed = 0
        while trimmed < limit, let last = count.indices.last, count[last] == 0 {
            // Free (listed and pending blocks hold tokens): off the free list, then off the end.
            let (p, n) = (previous[last], next[last])
            if p >= 0 { next[Int(p)] = n } else { freeBlocks = n }
            if n >= 0 { previous[Int(n)] = p }
            count.removeLast(1)
            next.removeLast(1)
            previous.removeLast(1)
            label.removeLast(1)
            token.removeLast(Self.capacity)
            tag.removeLast(Self.capacity)
            type.removeLast(Self.capacity)
            trimmed += 1
        }
        guard trimmed > 0 else { return }
        count.giveBackSpareMappedRoom()
        next.giveBackSpareMappedRoom()
        previous.giveBackSpareMappedRoom()
        label.giveBackSpareMappedRoom()
        token.giveBackSpareMappedRoom()
        tag.giveBackSpareMappedRoom()
        type.giveBackSpareMappedRoom()
    }

    /// The tokens the sweep packs a block to: 13/16 of a block, the rest left for inserts.
    package static let sweepFill = capacity * 13 / 16

    /// Exchanges the places in memory of blocks `b` and `c` (in the list, free or pending,
    /// each): their slots, their per-block entries, every link and list end that names
    /// them, and the positions of their tokens. The tour does not change. O(B).
    package mutating func exchangeBlocks(_ b: Int, _ c: Int) {
        guard b != c else { return }
        let (b32, c32) = (Int32(b), Int32(c))
        func swapped(_ x: Int32) -> Int32 { x == b32 ? c32 : x == c32 ? b32 : x }
        let (nb, pb, nc, pc) = (next[b], previous[b], next[c], previous[c])
        // The neighbours' links (a neighbour that is b or c itself is mended below).
        if nb >= 0 && nb != c32 { previous[Int(nb)] = c32 }
        if pb >= 0 && pb != c32 { next[Int(pb)] = c32 }
        if nc >= 0 && nc != b32 { previous[Int(nc)] = b32 }
        if pc >= 0 && pc != b32 { next[Int(pc)] = b32 }
        (next[b], previous[b], next[c], previous[c]) = (swapped(nc), swapped(pc), swapped(nb), swapped(pb))
        (count[b], count[c]) = (count[c], count[b])
        (label[b], label[c]) = (label[c], label[b])
        head = swapped(head)
        tail = swapped(tail)
        freeBlocks = swapped(freeBlocks)
        pendingHead = swapped(pendingHead)
        pendingTail = swapped(pendingTail)
        // The slots: copied one way when the other block holds none (a free block), swapped
        // through a buffer otherwise; then the moved tokens' positions.
        let (sb, sc) = (b * Self.capacity, c * Self.capacity)
        let (nowInB, nowInC) = (Int(count[b]), Int(count[c]))
        let moved = max(nowInB, nowInC)
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: Self.capacity) { buffer in
            let held = buffer.baseAddress!
            func exchange(_ column: inout _Column<Int32>) {
                column.withUnsafeMutableBufferPointer { x in
                    let (pb, pc) = (x.baseAddress! + sb, x.baseAddress! + sc)
                    if nowInB == 0 {
                        pc.update(from: pb, count: nowInC)
                    } else if nowInC == 0 {
                        pb.update(from: pc, count: nowInB)
                    } else {
                        held.update(from: pb, count: moved)
                        pb.update(from: pc, count: moved)
                        pc.update(from: held, count: moved)
                    }
                }
            }
            exchange(&token)
            exchange(&tag)
            exchange(&type)
        }
        token.withUnsafeBufferPointer { t in
        span.withUnsafeMutableBufferPointer { sp in
            func place(_ range: Range<Int>) {
                for i in range {
                    let k = t[i]
                    if k >= 0 { sp[Int(k)].enter = UInt32(truncatingIfNeeded: i) } else { sp[Int(~k)].exit = UInt32(truncatingIfNeeded: i) }
                }
            }
            place(sb ..< sb + nowInB)
            place(sc ..< sc + nowInC)
        }}
    }

    // MARK: Compaction

    /// The tokens a block holds after ``compact()``: a quarter of each block is left for
    /// inserts, as merges leave it, so that the mutations after a compaction do not split
    /// every block they touch (each split takes a new block).
    package static let compactFill = capacity * 3 / 4

    /// Lays the tour out again in tour order in memory, ``compactFill`` tokens per block.
    /// Blocks that splits made are wherever a free block was, so a tree built by appends
    /// under random parents has its runs scattered and a scan of a subtree jumps from block
    /// to block; after this it reads memory in order.
    ///
    /// The k-th token of the tour goes to block k / fill, offset k % fill, so the columns are
    /// the live blocks' runs copied in order (a block's run lands in at most two new
    /// blocks), and a position maps to its new one through its block's first tour index:
    /// the positions are rewritten in node order, reading a table of one entry per block,
    /// not in tour order (which would be a random write per token). O(n + blocks).
    package mutating func compact() {
        precondition(pendingHead < 0, "compacting a tour with pending blocks: reclaim them first")
        let fill = Self.compactFill
        // Each live block's first token's index in the tour.
        var start = [Int](repeating: 0, count: count.count)
        var tokens = 0
        var b = head
        while b >= 0 {
            start[Int(b)] = tokens
            tokens += Int(count[Int(b)])
            b = next[Int(b)]
        }
        let blocks = (tokens + fill - 1) / fill
        func packed(_ column: _Column<Int32>) -> _Column<Int32> {
            var out = _Column<Int32>(repeating: 0, count: blocks * Self.capacity)
            out.withUnsafeMutableBufferPointer { out in
                column.withUnsafeBufferPointer { old in
                    var b = head
                    while b >= 0 {
                        var k = start[Int(b)]
                        var from = Int(b) * Self.capacity
                        var left = Int(count[Int(b)])
                        while left > 0 {
                            let piece = min(left, fill - k % fill)
                            let to = k / fill * Self.capacity + k % fill
                            (out.baseAddress! + to).update(from: old.baseAddress! + from, count: piece)
                            (k, from, left) = (k + piece, from + piece, left - piece)
                        }
                        b = next[Int(b)]
                    }
                }
            }
            return out
        }
        token = packed(token)
        tag = packed(tag)
        type = packed(type)
        // Positions in node order. A free node slot's span is stale and nothing reads it:
        // it maps to any number, but never reads past the table.
        start.withUnsafeBufferPointer { start in
            span.withUnsafeMutableBufferPointer { span in
                func moved(_ p: UInt32) -> UInt32 {
                    let b = Self.block(p)
                    guard b < start.count else { return 0 }
                    let k = start[b] &+ Self.offset(p)
                    return Self.position(k / fill, k % fill)
                }
                for x in span.indices {
                    span[x] = Span(enter: moved(span[x].enter), exit: moved(span[x].exit))
                }
            }
        }
        adoptContiguousBlocks(tokens: tokens, fill: fill)
    }

    /// Makes the block list that of `tokens` tokens laid out in tour order from slot 0,
    /// `fill` to a block (the last block holds the rest): counts, links and labels. The
    /// slot columns must hold that many blocks' slots. O(blocks).
    private mutating func adoptContiguousBlocks(tokens: Int, fill: Int) {
        let blocks = (tokens + fill - 1) / fill
        precondition(token.count >= blocks * Self.capacity, "the slot columns are shorter than the blocks")
        count = _Column((0 ..< blocks).lazy.map { Int32(min(fill, tokens - $0 * fill)) })
        next = _Column((0 ..< blocks).lazy.map { $0 + 1 < blocks ? Int32($0 + 1) : -1 })
        previous = _Column((0 ..< blocks).lazy.map { Int32($0 - 1) })
        // Spread over the label space as appended blocks are, and never past it.
        let step = min(labelStep, labelLimit / UInt64(blocks + 1))
        label = _Column((0 ..< blocks).lazy.map { UInt64($0 + 1) * step })
        (head, tail) = blocks > 0 ? (0, Int32(blocks - 1)) : (-1, -1)
        liveBlocks = blocks
        freeBlocks = -1
        sweepCursor = 0
    }

    // MARK: Streamed builds

    /// Room for a streamed build of `nodes` nodes: the node positions, and the slots of
    /// their tokens in full blocks (see ``finishStreamed()``). O(1): reserved, not written.
    package mutating func reserveStreamed(nodes: Int) {
        let slots = (2 * nodes + Self.capacity - 1) / Self.capacity * Self.capacity
        span.reserveCapacity(nodes)
        token.reserveCapacity(slots)
        tag.reserveCapacity(slots)
        type.reserveCapacity(slots)
    }

    /// Ends a streamed build, whose tokens were appended to the slot columns in tour order
    /// from slot 0 (each token's position its slot) with no block list yet: pads the last
    /// block and makes the list of full blocks. O(blocks).
    package mutating func finishStreamed() {
        let tokens = token.count
        let padding = (Self.capacity - tokens % Self.capacity) % Self.capacity
        token.append(contentsOf: repeatElement(0, count: padding))
        tag.append(contentsOf: repeatElement(0, count: padding))
        type.append(contentsOf: repeatElement(0, count: padding))
        adoptContiguousBlocks(tokens: tokens, fill: Self.capacity)
    }

    /// Ends a build that wrote `tokens` tokens in tour order from slot 0 into slot columns
    /// already padded to whole blocks: makes the list of full blocks. O(blocks).
    package mutating func adoptStreamedBlocks(tokens: Int) {
        adoptContiguousBlocks(tokens: tokens, fill: Self.capacity)
    }

    /// Whether the tour's `tokens` tokens lie in slot order from slot 0, in full blocks
    /// linked in physical order (the last one holding the rest), with nothing pending: as a
    /// streamed build or a loaded snapshot leaves them, until a change moves a block. Each
    /// token's position is then its place in the tour.
    ///
    /// - Complexity: O(blocks)
    package func liesInSlotOrder(tokens: Int) -> Bool {
        let blocks = (tokens + Self.capacity - 1) / Self.capacity
        guard liveBlocks == blocks, pendingHead < 0, blocks == 0 ? head < 0 : head == 0 && tail == Int32(blocks - 1) else { return false }
        return count.withUnsafeBufferPointer { count in
            next.withUnsafeBufferPointer { next in
                for b in 0 ..< blocks {
                    let full = b + 1 < blocks ? Self.capacity : tokens - b * Self.capacity
                    if count[b] != Int32(full) || next[b] != (b + 1 < blocks ? Int32(b + 1) : -1) { return false }
                }
                return true
            }
        }
    }

    // MARK: Checks

    /// Checks the tour against itself: blocks linked both ways with increasing labels, no
    /// empty block, every token's span pointing back at it, each node entered before it
    /// exits. Returns the tokens in tour order, for callers that compare with the links.
    package func checkedTokens() -> [Int32] {
        var out: [Int32] = []
        var b = head
        var previousBlock: Int32 = -1
        var blocks = 0
        while b >= 0 {
            let i = Int(b)
            blocks += 1
            precondition(previous[i] == previousBlock, "block \(b)'s back link is wrong")
            precondition(count[i] > 0 && Int(count[i]) <= Self.capacity, "block \(b) holds \(count[i]) tokens")
            if previousBlock >= 0 { precondition(label[Int(previousBlock)] < label[i], "block labels out of order at \(b)") }
            for o in 0 ..< Int(count[i]) {
                let p = Self.position(i, o)
                let t = token[Self.slot(p)]
                precondition(position(of: t) == p, "token \(t) at \(p) but its span says \(position(of: t))")
                out.append(t)
            }
            previousBlock = b
            b = next[i]
            precondition(out.count <= token.count, "the block list has a cycle")
        }
        precondition(tail == previousBlock, "tail is not the last block")
        precondition(blocks == liveBlocks, "live block count \(liveBlocks), \(blocks) blocks in the list")
        // The free list and the pending chain: linked both ways, empty and marked blocks.
        var others = 0
        for (first, last, pending) in [(freeBlocks, Int32(-1), false), (pendingHead, pendingTail, true)] {
            var b = first
            var before: Int32 = -1
            while b >= 0 {
                let i = Int(b)
                others += 1
                precondition(others <= count.count, "a free or pending chain has a cycle")
                precondition(previous[i] == before, "block \(b)'s back link is wrong in the \(pending ? "pending" : "free") chain")
                if pending {
                    precondition(label[i] == Self.pendingLabel && count[i] > 0, "pending block \(b) is unmarked or empty")
                } else {
                    precondition(count[i] == 0, "free block \(b) holds tokens")
                }
                before = b
                b = next[i]
            }
            if pending { precondition(before == last, "the pending chain's tail is wrong") }
        }
        precondition(blocks + others == count.count, "\(count.count) blocks, \(blocks) in the list and \(others) free or pending")
        for t in out where t >= 0 {
            precondition(precedes(span[Int(t)].enter, span[Int(t)].exit), "node \(t) exits before it enters")
        }
        return out
    }
}
