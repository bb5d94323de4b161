/// The Euler tour of a forest kept in order under mutation: the live index's structure
/// (see `docs/live-index.md`).
///
/// Every node has an *enter* token (its index) and an *exit* token (its bitwise complement);
/// a node's descendants are exactly the tokens between its two. The tour lives in blocks of
/// ``capacity`` slots, each block a run of the tour packed at its start, linked in tour
/// order; each block carries a 64-bit order label (Dietz and Sleator's list relabeling), so
/// two positions compare by offset within a block, else by their blocks' labels. A node's
/// two positions are kept in `span`, and rewritten whenever its tokens move.
///
/// Enter slots carry copies of the node's narrow tag and type, so a scan of a subtree's
/// slots never reads a node column.
///
/// Costs, with B = ``capacity``: comparing two positions O(1); inserting or removing k ≤ B
/// tokens O(B) slot moves plus O(log(blocks)) amortized label writes (worst case O(blocks));
/// moving a run of s tokens O(s + B) plus that.
@usableFromInline
struct _TourBlocks {
    /// Slots per block (a power of two: a position packs the offset in the low bits).
    @usableFromInline static let capacity = 64
    @usableFromInline static let offsetBits: UInt32 = 6
    /// The type copy of an exit slot: no type has it.
    @usableFromInline static let exitType: Int32 = -1
    /// Labels stay below this, so that gaps never overflow.
    let labelLimit: UInt64
    /// The label gap between blocks appended at the end.
    let labelStep: UInt64

    /// A node's two positions: block number << ``offsetBits`` | offset.
    @usableFromInline
    struct Span {
        @usableFromInline var enter: UInt32
        @usableFromInline var exit: UInt32

        @inlinable init(enter: UInt32, exit: UInt32) {
            self.enter = enter
            self.exit = exit
        }
    }

    /// Per slot (block * capacity + offset): the token, and for an enter token the node's tag and type.
    @usableFromInline var token: [Int32] = []
    @usableFromInline var tag: [Int32] = []
    @usableFromInline var type: [Int32] = []
    /// Per block.
    @usableFromInline var count: [Int32] = []
    @usableFromInline var next: [Int32] = []
    @usableFromInline var previous: [Int32] = []
    @usableFromInline var label: [UInt64] = []
    @usableFromInline var head: Int32 = -1
    @usableFromInline var tail: Int32 = -1
    /// Free blocks, linked through `next`.
    var freeBlocks: Int32 = -1
    /// Per node slot (not per tour slot): where its two tokens are.
    @usableFromInline var span: [Span] = []

    /// An empty tour whose block labels stay below 2^`labelBits` (62: room for 2^31 blocks
    /// appended one after another before any relabeling; tests use fewer bits to force it).
    init(labelBits: Int = 62) {
        precondition(labelBits >= 8 && labelBits <= 62, "label bits \(labelBits) out of 8 ... 62")
        labelLimit = 1 << UInt64(labelBits)
        labelStep = max(4, labelLimit >> 30)
    }

    // MARK: Positions

    @inlinable @inline(__always)
    static func block(_ p: UInt32) -> Int { Int(p >> offsetBits) }

    @inlinable @inline(__always)
    static func offset(_ p: UInt32) -> Int { Int(p & UInt32(capacity - 1)) }

    @inlinable @inline(__always)
    static func position(_ block: Int, _ offset: Int) -> UInt32 {
        UInt32(block) << offsetBits | UInt32(offset)
    }

    /// Whether position `p` comes before position `q` in the tour.
    @inlinable @inline(__always)
    func precedes(_ p: UInt32, _ q: UInt32) -> Bool {
        let (bp, bq) = (Self.block(p), Self.block(q))
        return bp == bq ? p < q : label[bp] < label[bq]
    }

    /// Whether node `a` is a proper ancestor of node `b` (both live).
    @inlinable @inline(__always)
    func isProperAncestor(_ a: Int32, _ b: Int32) -> Bool {
        let s = span[Int(a)]
        let e = span[Int(b)].enter
        // A subtree within one block (most of them): offsets alone decide.
        if Self.block(s.enter) == Self.block(s.exit) {
            return Self.block(e) == Self.block(s.enter) && s.enter < e && e < s.exit
        }
        return precedes(s.enter, e) && precedes(e, s.exit)
    }

    /// The slot index of position `p`.
    @inlinable @inline(__always)
    static func slot(_ p: UInt32) -> Int { block(p) &* capacity &+ offset(p) }

    /// Calls `body` with the slots from position `from` (or just after it, if `inclusive`
    /// is false) up to, not including, position `to` (`from` precedes `to`), block by
    /// block: each call gets one block's run of slot indices.
    @inlinable
    func forEachRun(from: UInt32, inclusive: Bool = true, to: UInt32, _ body: (Range<Int>) throws -> Void) rethrows {
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

    /// The position just after `p` (`nil` past the end of the tour).
    func after(_ p: UInt32) -> UInt32? {
        let b = Self.block(p)
        let o = Self.offset(p) + 1
        if o < Int(count[b]) { return Self.position(b, o) }
        let n = next[b]
        return n < 0 ? nil : Self.position(Int(n), 0)
    }

    /// The position just before `p` (`nil` before the start of the tour).
    func before(_ p: UInt32) -> UInt32? {
        let b = Self.block(p)
        let o = Self.offset(p)
        if o > 0 { return Self.position(b, o - 1) }
        let q = previous[b]
        return q < 0 ? nil : Self.position(Int(q), Int(count[Int(q)]) - 1)
    }

    /// The token at position `p`.
    func token(at p: UInt32) -> Int32 { token[Self.slot(p)] }

    // MARK: Nodes

    /// Makes room for node slots below `n`.
    mutating func reserveNodes(_ n: Int) {
        if span.count < n { span.append(contentsOf: repeatElement(Span(enter: 0, exit: 0), count: n - span.count)) }
    }

    /// Puts leaf `x` (with its tag and type copies) just before the token at position
    /// `before`, or at the end of the tour.
    mutating func insertLeaf(_ x: Int32, tag t: Int32, type ty: Int32, before: UInt32?) {
        reserveNodes(Int(x) + 1)
        let hole = openHole(2, before: before)
        write(hole.0, token: x, tag: t, type: ty)
        write(hole.1, token: ~x, tag: Int32.min, type: Self.exitType)
    }

    /// Removes node `x`'s tokens and every token between them (its subtree), calling
    /// `removed` with each node whose enter token went.
    mutating func removeRun(of x: Int32, _ removed: (Int32) -> Void = { _ in }) {
        let s = span[Int(x)]
        deleteRange(from: s.enter, through: s.exit, removed)
    }

    /// Moves node `x`'s run (its subtree's tokens) to just before the token at position
    /// `before` (outside the run), or to the end of the tour.
    mutating func moveRun(of x: Int32, before: Int32?) {
        // `before` is a token, not a position: positions change as the run leaves.
        var moved: [(Int32, Int32, Int32)] = []
        let s = span[Int(x)]
        forEachRun(from: s.enter, to: s.exit) { run in
            for i in run { moved.append((token[i], tag[i], type[i])) }
        }
        moved.append((~x, Int32.min, Self.exitType))
        deleteRange(from: s.enter, through: s.exit) { _ in }
        var k = 0
        while k < moved.count {
            let chunk = min(Self.capacity, moved.count - k)
            let target = before.map(position(of:))
            var p = openHole(chunk, before: target).0
            for j in 0 ..< chunk {
                let (t, g, y) = moved[k + j]
                write(p, token: t, tag: g, type: y)
                if j + 1 < chunk { p += 1 }
            }
            k += chunk
        }
    }

    /// The current position of a token.
    func position(of token: Int32) -> UInt32 {
        token >= 0 ? span[Int(token)].enter : span[Int(~token)].exit
    }

    /// Sets the tag copy of node `x`.
    mutating func setTag(_ t: Int32, of x: Int32) { tag[Self.slot(span[Int(x)].enter)] = t }

    /// Sets the type copy of node `x`.
    mutating func setType(_ ty: Int32, of x: Int32) { type[Self.slot(span[Int(x)].enter)] = ty }

    // MARK: Slots

    private mutating func write(_ p: UInt32, token t: Int32, tag g: Int32, type y: Int32) {
        let i = Self.slot(p)
        token[i] = t
        tag[i] = g
        type[i] = y
        if t >= 0 { span[Int(t)].enter = p } else { span[Int(~t)].exit = p }
    }

    /// Moves slot `from` to slot position `to`, keeping its node's span in step.
    private mutating func moveSlot(_ from: Int, to p: UInt32) {
        write(p, token: token[from], tag: tag[from], type: type[from])
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
        if n + k > Self.capacity {
            // Split: the tokens from `o` on go to a new block after this one.
            let c = newBlock(after: Int32(b))
            for i in o ..< n { moveSlot(b * Self.capacity + i, to: Self.position(c, i - o)) }
            count[c] = Int32(n - o)
            count[b] = Int32(o)
            n = o
            if o + k > Self.capacity {
                // No room left here: the hole gets a block of its own between the two.
                b = newBlock(after: Int32(b))
                o = 0
                n = 0
            }
        }
        // Shift the tail of the block right by k, last first.
        var i = n - 1
        while i >= o {
            moveSlot(b * Self.capacity + i, to: Self.position(b, i + k))
            i -= 1
        }
        count[b] = Int32(n + k)
        return (Self.position(b, o), Self.position(b, o + k - 1))
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
            for i in end ..< n { moveSlot(base + i, to: Self.position(b, o + i - end)) }
            count[b] = Int32(n - (end - o))
            let done = b == last
            if count[b] == 0 { freeBlock(b) }
            if done { return }
            b = nextBlock
            o = 0
        }
    }

    /// Merges block `b` with its successor when both together fill at most half a block.
    private mutating func mergeIfSparse(_ b: Int) {
        let n = next[b]
        guard n >= 0, Int(count[b] + count[Int(n)]) <= Self.capacity / 2 else { return }
        let start = Int(count[b])
        for i in 0 ..< Int(count[Int(n)]) { moveSlot(Int(n) * Self.capacity + i, to: Self.position(b, start + i)) }
        count[b] += count[Int(n)]
        count[Int(n)] = 0
        freeBlock(Int(n))
    }

    // MARK: Blocks

    /// A new empty block linked after block `after` (-1: the list is empty), labelled between
    /// its neighbours.
    private mutating func newBlock(after: Int32) -> Int {
        let b: Int
        if freeBlocks >= 0 {
            b = Int(freeBlocks)
            freeBlocks = next[b]
        } else {
            b = count.count
            count.append(0)
            next.append(-1)
            previous.append(-1)
            label.append(0)
            token.append(contentsOf: repeatElement(0, count: Self.capacity))
            tag.append(contentsOf: repeatElement(0, count: Self.capacity))
            type.append(contentsOf: repeatElement(0, count: Self.capacity))
        }
        count[b] = 0
        if after < 0 {
            precondition(head < 0, "a block before the head")
            (head, tail) = (Int32(b), Int32(b))
            (next[b], previous[b]) = (-1, -1)
            label[b] = labelStep
            return b
        }
        let a = Int(after)
        makeRoom(after: a)
        let n = next[a]
        let upper = n < 0 ? min(labelLimit, label[a] + labelStep) : label[Int(n)]
        label[b] = label[a] + (upper - label[a]) / 2
        (next[b], previous[b]) = (n, Int32(a))
        next[a] = Int32(b)
        if n >= 0 { previous[Int(n)] = Int32(b) } else { tail = Int32(b) }
        return b
    }

    /// Relabels the blocks after block `a` if there is no label between `a` and its
    /// successor: Dietz and Sleator's rule, the least j whose gap from `a` to its j-th
    /// successor exceeds j², then the j - 1 blocks in between spread evenly.
    private mutating func makeRoom(after a: Int) {
        func gap(_ s: Int32) -> UInt64 { (s < 0 ? labelLimit : label[Int(s)]) - label[a] }
        guard gap(next[a]) < 2 else { return }
        var j: UInt64 = 1
        var s = next[a]
        while gap(s) <= j * j {
            if s < 0 {
                // The end of the list, still crowded: spread every block's label evenly.
                relabelAll()
                return
            }
            s = next[Int(s)]
            j += 1
        }
        let step = gap(s) / j
        var x = next[a]
        var k: UInt64 = 1
        while x != s {
            label[Int(x)] = label[a] + k * step
            x = next[Int(x)]
            k += 1
        }
    }

    /// Spreads every block's label evenly below the limit, with room at the end.
    private mutating func relabelAll() {
        var blocks = 0
        var b = head
        while b >= 0 { blocks += 1; b = next[Int(b)] }
        let step = labelLimit / UInt64(blocks + 2)
        precondition(step >= 2, "the tour's block labels are exhausted")
        var k: UInt64 = 1
        b = head
        while b >= 0 {
            label[Int(b)] = k * step
            k += 1
            b = next[Int(b)]
        }
    }

    private mutating func freeBlock(_ b: Int) {
        let (p, n) = (previous[b], next[b])
        if p >= 0 { next[Int(p)] = n } else { head = n }
        if n >= 0 { previous[Int(n)] = p } else { tail = p }
        count[b] = 0
        next[b] = freeBlocks
        previous[b] = -1
        freeBlocks = Int32(b)
    }

    // MARK: Checks

    /// Checks the tour against itself: blocks linked both ways with increasing labels, no
    /// empty block, every token's span pointing back at it, each node entered before it
    /// exits. Returns the tokens in tour order, for callers that compare with the links.
    func checkedTokens() -> [Int32] {
        var out: [Int32] = []
        var b = head
        var previousBlock: Int32 = -1
        while b >= 0 {
            let i = Int(b)
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
        for t in out where t >= 0 {
            precondition(precedes(span[Int(t)].enter, span[Int(t)].exit), "node \(t) exits before it enters")
        }
        return out
    }
}
