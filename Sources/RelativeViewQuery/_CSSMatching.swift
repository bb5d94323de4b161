import RelativeViewCore

/// CSS selectors over the same ranks as XPath: a complex selector's combinators are axis
/// steps over whole sets (a descendant combinator is a descendant step, pruned as XPath's
/// is), each compound's type a name test (through the per-type postings), its other
/// conditions checked on each candidate; `:not()`, `:is()` and `:has()` match their
/// arguments from right to left from the candidate.
extension _XPathEvaluator {
    /// The elements that match any selector of `list`, in document order.
    mutating func select(_ list: [_ComplexSelector]) throws(QueryError) -> [_Key] {
        var out: [_Key] = []
        for (i, complex) in list.enumerated() {
            let matched = try select(complex)
            out = i == 0 ? matched : Self.merged(out, matched)
        }
        return out
    }

    mutating func select(_ complex: _ComplexSelector) throws(QueryError) -> [_Key] {
        var set: [_Key] = [.root]
        for (i, compound) in complex.compounds.enumerated() {
            let test = typeTest(compound)
            // A first compound with `:root` can only be one of the root node's children.
            let rootOnly = i == 0 && compound.conditions.contains { if case .root = $0 { true } else { false } }
            if i == 0 && !rootOnly && !compound.conditions.isEmpty, case .principal = test {
                // Any element with conditions: one pass over the elements, no set between.
                try spend(Int(count), at: 0)
                let conditions = compound.conditions
                set = try split(Int(count)) { (e, range) throws(QueryError) -> [_Key] in
                    let attributes = e.resolved(conditions)
                    // Every rank in turn: each slot read from the slot of each rank, in order
                    // (see `slot(_:)`), as XPath's scans read them, not through the runs of
                    // slots kept for sparse reads (`[category]` after 10^4 moves of XMark
                    // took 1.20x of its time on the tree loaded afresh).
                    let scanned = e.scansRanks
                    e.scansRanks = true
                    defer { e.scansRanks = scanned }
                    var some: [_Key] = []
                    for r in Int32(range.lowerBound) ..< Int32(range.upperBound) where e.isElement(r) {
                        if try e.matchesConditions(r, conditions, attributes) { some.append(_Key(rank: r)) }
                    }
                    return some
                }
                if set.isEmpty { break }
                continue
            }
            switch i == 0 ? (rootOnly ? .child : .descendant) : complex.combinators[i - 1] {
            case .descendant: set = try axis(set, .descendant, test, offset: 0)
            case .child: set = try axis(set, .child, test, offset: 0)
            case .subsequentSibling: set = try axis(set, .followingSibling, test, offset: 0)
            case .nextSibling:
                var next: [_Key] = []
                for k in set {
                    if let s = nextElementSibling(k.rank), passes(s, test) { next.append(_Key(rank: s)) }
                }
                // Distinct nodes (each has one previous element sibling), but the next
                // siblings of nested nodes interleave: sorted.
                set = next.sorted()
            }
            var conditions = compound.conditions
            if case .type(let t) = test, !set.isEmpty, !namespacesDeclared {
                // `:first-of-type` and `:last-of-type` of a set of one type: a pass over the
                // set beside the type's postings, before the other conditions.
                for (k, c) in conditions.enumerated().reversed() {
                    guard let ends = Self.ofTypeEnds(c) else { continue }
                    for fromEnd in ends { set = try keptFirstOfType(set, type: t, fromEnd: fromEnd) }
                    conditions.remove(at: k)
                }
                if set.isEmpty { break }
            }
            if !conditions.isEmpty {
                let attributes = resolved(conditions)
                var kept: [_Key] = []
                if attributes.readsAttributes {
                    // Each candidate's attributes asked for ahead of its test.
                    let d = _AttributesAhead.distance
                    var ahead = attributesAhead()
                    for j in 0 ..< min(set.count, d) { ahead.push(set[j].rank) }
                    for j in set.indices {
                        if j + d < set.count { ahead.push(set[j + d].rank) }
                        if try matchesConditions(set[j].rank, conditions, attributes) { kept.append(set[j]) }
                    }
                } else {
                    for k in set where try matchesConditions(k.rank, conditions, attributes) { kept.append(k) }
                }
                set = kept
            }
            if set.isEmpty { break }
        }
        return set
    }

    /// The test of a compound's type, resolved once per evaluation: any element, or those
    /// of its local name in any namespace (`E`, `*|E`: `E` and `p:E`), or, with
    /// `inNoNamespace` (`|E`, `|*`), those of that name (any) in no namespace.
    mutating func typeTest(_ compound: _CompoundSelector) -> Test {
        // An HTML document's names are lower case (its parser wrote them so), and HTML's
        // selectors ignore ASCII case in them.
        let name = index.isHTML ? compound.name.map(Self.asciiLowercased) : compound.name
        if name == nil && !compound.inNoNamespace { return .principal }
        let key = (compound.inNoNamespace ? "|" : "*|") + (name ?? "*")
        if let known = cssTypes[key] { return known }
        let made: Test
        if compound.inNoNamespace {
            // Unprefixed names, then only elements in no default namespace.
            let ids = name.map { n in treeTypes { $0 == n } } ?? treeTypes { !$0.contains(":") }
            made = ids.isEmpty ? .none : .unqualified(ids)
        } else {
            let ids = types(withLocalName: name)
            made = ids.isEmpty ? .none : ids.count == 1 ? .type(ids[0]) : .types(ids)
        }
        cssTypes[key] = made
        return made
    }

    // MARK: One element

    mutating func matchesCompound(_ r: Int32, _ compound: _CompoundSelector) throws(QueryError) -> Bool {
        guard passes(r, typeTest(compound)) else { return false }
        return try matchesConditions(r, compound.conditions)
    }

    mutating func matchesConditions(_ r: Int32, _ conditions: [_Condition]) throws(QueryError) -> Bool {
        for condition in conditions where !(try matches(r, condition)) { return false }
        return true
    }

    /// `conditions`, of which those on attributes come resolved (`attributes`, one per
    /// condition, from ``_ResolvedAttributes``): no lookup and no reference counted on
    /// each element.
    mutating func matchesConditions(_ r: Int32, _ conditions: [_Condition], _ attributes: _ResolvedAttributes) throws(QueryError) -> Bool {
        for i in 0 ..< attributes.count {
            let a = attributes.items[i]
            if a.type != _ResolvedAttribute.notAnAttribute {
                if !attributeMatches(r, a) { return false }
            } else if !(try matches(r, conditions[i])) {
                return false
            }
        }
        return true
    }

    /// The attribute conditions of `conditions` resolved for this evaluation.
    mutating func resolved(_ conditions: [_Condition]) -> _ResolvedAttributes {
        let made = _ResolvedAttributes(conditions)
        for i in 0 ..< made.count {
            if let a = conditions[i].onAttribute { made.items[i].type = attributeType(named: a.name) }
        }
        return made
    }

    /// Whether rank `r` has the attribute and its value passes.
    mutating func attributeMatches(_ r: Int32, _ a: _ResolvedAttribute) -> Bool {
        if a.type < 0 { return false }
        for e in attributeRun(r) where view.name(e) == a.type {
            let v = view.attributeValue(e)
            guard let op = a.op else { return true }
            let want = a.value, ignoreCase = a.ignoreCase
            switch op {
            case .equal: return Self.equal(v[...], want[...], ignoreCase: ignoreCase)
            case .includes: return Self.includes(v, want, ignoreCase: ignoreCase)
            case .dashMatch:
                return Self.equal(v[...], want[...], ignoreCase: ignoreCase)
                    || (v.count > want.count && v[want.count] == UInt8(ascii: "-") && Self.equal(v[..<want.count], want[...], ignoreCase: ignoreCase))
            case .prefix: return !want.isEmpty && v.count >= want.count && Self.equal(v[..<want.count], want[...], ignoreCase: ignoreCase)
            case .suffix: return !want.isEmpty && v.count >= want.count && Self.equal(v[(v.count - want.count)...], want[...], ignoreCase: ignoreCase)
            case .substring:
                guard !want.isEmpty, v.count >= want.count else { return false }
                for i in 0 ... v.count - want.count where Self.equal(v[i ..< i + want.count], want[...], ignoreCase: ignoreCase) { return true }
                return false
            }
        }
        return false
    }

    /// The type of attributes named `name` (-1 if no node has ever had that name), looked
    /// up in the type registry once per evaluation.
    mutating func attributeType(named name: String) -> Int32 {
        if let known = cssAttributeTypes[name] { return known }
        let id = TypeRegistry.shared.existingTypeID(named: index.isHTML ? Self.asciiLowercased(name) : name)?.rawValue ?? -1
        cssAttributeTypes[name] = id
        return id
    }

    /// `s` with its ASCII capitals in lower case (other letters as they are).
    static func asciiLowercased(_ s: String) -> String {
        String(String.UnicodeScalarView(s.unicodeScalars.map { $0 >= "A" && $0 <= "Z" ? Unicode.Scalar($0.value + 32)! : $0 }))
    }

    static func isCSSSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == 0x0C }

    /// Whether `value` holds `word` as one of its whitespace-separated words.
    static func includes(_ value: UnsafeBufferPointer<UInt8>, _ word: UnsafeBufferPointer<UInt8>, ignoreCase: Bool) -> Bool {
        guard !word.isEmpty, !word.contains(where: isCSSSpace) else { return false }
        var i = 0
        while i < value.count {
            while i < value.count && isCSSSpace(value[i]) { i += 1 }
            let start = i
            while i < value.count && !isCSSSpace(value[i]) { i += 1 }
            if i > start && equal(value[start ..< i], word[...], ignoreCase: ignoreCase) { return true }
        }
        return false
    }

    static func equal(_ a: Slice<UnsafeBufferPointer<UInt8>>, _ b: Slice<UnsafeBufferPointer<UInt8>>, ignoreCase: Bool) -> Bool {
        guard a.count == b.count else { return false }
        if !ignoreCase { return _sameBytes(UnsafeBufferPointer(rebasing: a), UnsafeBufferPointer(rebasing: b)) }
        return zip(a, b).allSatisfy { lower($0) == lower($1) }
    }

    static func lower(_ b: UInt8) -> UInt8 { b >= 0x41 && b <= 0x5A ? b | 0x20 : b }

    mutating func matches(_ r: Int32, _ condition: _Condition) throws(QueryError) -> Bool {
        switch condition {
        case .id, .className, .attribute:
            // One condition met on its own (inside :not(), :is(), :has() or a compound
            // matched from the right): resolved in place, nothing allocated.
            let a = condition.onAttribute.unsafelyUnwrapped
            let type = attributeType(named: a.name)
            return a.value.withUnsafeBufferPointer { attributeMatches(r, _ResolvedAttribute(type: type, op: a.op, value: $0, ignoreCase: a.ignoreCase)) }
        case .nth(let a, let b, let fromEnd, let ofType):
            if ofType && a == 0 && b == 1 && !namespacesDeclared { return try isFirstOfType(r, fromEnd: fromEnd) }
            let i = try siblingIndex(r, fromEnd: fromEnd, ofType: ofType)
            if a == 0 { return i == b }
            let d = i - b
            return d % a == 0 && d / a >= 0
        case .empty:
            var c = r + 1
            let stop = end(r)
            while c < stop {
                let t = type(c)
                if t == textType || t == cdataType || isElement(c) { return false }
                c = end(c)
            }
            return true
        case .root:
            return parent(r) < 0
        case .lang(let wanted):
            // The nearest language given, on the element or an ancestor: equal to `wanted` or
            // starting with it and '-', ASCII letters in either case.
            let xmlLang = attributeType(named: "xml:lang"), lang = attributeType(named: "lang")
            var x = r
            while x >= 0 {
                var found: UnsafeBufferPointer<UInt8>?
                for e in attributeRun(x) {
                    let n = view.name(e)
                    if n == xmlLang && xmlLang >= 0 { found = view.attributeValue(e); break }
                    if n == lang && lang >= 0 && found == nil { found = view.attributeValue(e) }
                }
                if let v = found {
                    return wanted.withUnsafeBufferPointer { w in
                        Self.equal(v[...], w[...], ignoreCase: true)
                            || (v.count > w.count && v[w.count] == UInt8(ascii: "-") && Self.equal(v[..<w.count], w[...], ignoreCase: true))
                    }
                }
                x = parent(x)
            }
            return false
        case .not(let list):
            for complex in list where try matches(r, complex, complex.compounds.count - 1) { return false }
            return true
        case .is(let list):
            for complex in list where try matches(r, complex, complex.compounds.count - 1) { return true }
            return false
        case .has(let list):
            for relative in list where try has(r, relative) { return true }
            return false
        }
    }

    /// Rank `r`'s place (from 1) among its parent's element children (of its own type,
    /// with `ofType`), from the first or the last. The first question about a child of a
    /// parent numbers all that parent's element children at once (one walk of them), so
    /// that a whole set costs a walk of each parent's children, not one per child. Of its
    /// type, once ``_SiblingPlaces/walksBeforePostings`` parents were walked, all the
    /// nodes of `r`'s type are numbered in one pass over its postings instead (see
    /// ``placesOfType(_:fromEnd:)``): a walk reads every child's span, a cache miss each
    /// (8 of the 16 ms of `open_auction > bidder:first-of-type` on XMark's 95,624
    /// bidders), where the postings read the bidders alone, in order.
    mutating func siblingIndex(_ r: Int32, fromEnd: Bool, ofType: Bool) throws(QueryError) -> Int {
        let variant = (fromEnd ? 2 : 0) + (ofType ? 1 : 0)
        let direction = fromEnd ? 1 : 0
        if ofType, typePlaces[direction].type == type(r), let known = typePlaces[direction].place(of: r) { return Int(known) }
        let p = parent(r)
        if let known = siblingPlaces[variant].place(of: r, parent: p) { return Int(known) }
        // (Where the document declares namespaces, of a type means of an expanded name,
        // which several types may share: the walk below groups them.)
        if ofType && siblingPlaces[variant].walks >= _SiblingPlaces.walksBeforePostings && !namespacesDeclared {
            // Each type's places made once per direction and kept (a set of many types, as
            // `*:first-of-type`'s, would otherwise number a type's postings per node).
            let t = type(r)
            let key = Int64(t) << 1 | Int64(direction)
            if let made = typePlacesMade[key] {
                typePlaces[direction] = made
            } else {
                typePlaces[direction] = try placesOfType(t, fromEnd: fromEnd)
                typePlacesMade[key] = typePlaces[direction]
            }
            if let known = typePlaces[direction].place(of: r) { return Int(known) }
        }
        var places = siblingPlaces[variant]
        siblingPlaces[variant] = _SiblingPlaces()
        defer { siblingPlaces[variant] = places }
        // The children, and per type the children of it numbered so far, in arrays kept
        // from one parent to the next (taken out, so that each is unique while it is
        // written). A parent's children are few, and of fewer types: a look along them
        // beats a dictionary made per parent, whose hashing was about 5% of a cold
        // `open_auction > bidder:first-of-type increase`'s samples.
        var children = siblingChildren
        var seen = siblingTypes
        (siblingChildren, siblingTypes) = ([], [])
        children.removeAll(keepingCapacity: true)
        seen.removeAll(keepingCapacity: true)
        defer { (siblingChildren, siblingTypes) = (children, seen) }
        var s = p < 0 ? 0 : p + 1
        let stop = p < 0 ? count : end(p)
        while s < stop {
            if isElement(s) { children.append(s) }
            s = end(s)
        }
        try spend(children.count + 1, at: 0)
        // An element's type is its name as written (`p`, `x:p`): where the document
        // declares namespaces, two types may be one expanded name (`x:p` and `p` in the
        // default namespace `x` stands for) and one type two (`p` under two defaults), so
        // there the children are grouped by namespace URI and local name, as Selectors
        // Level 3 has it.
        // (Each expanded name met stands for its place in `expanded`, counted as a type is.)
        let byExpandedName = ofType && namespacesDeclared
        var expanded: [(uri: String, local: String)] = []
        var position: Int32 = 0
        var numbers = [Int32](repeating: 0, count: children.count)
        for i in 0 ..< children.count {
            let c = children[fromEnd ? children.count - 1 - i : i]
            if ofType {
                var t = type(c)
                if byExpandedName {
                    let (_, local, uri) = names(of: _Key(rank: c))
                    if let j = expanded.firstIndex(where: { $0.local == local && $0.uri == uri }) {
                        t = Int32(j)
                    } else {
                        t = Int32(expanded.count)
                        expanded.append((uri, local))
                    }
                }
                var n: Int32 = 1
                if let j = seen.firstIndex(where: { $0.type == t }) {
                    n = seen[j].count + 1
                    seen[j].count = n
                } else {
                    seen.append((t, 1))
                }
                numbers[fromEnd ? children.count - 1 - i : i] = n
            } else {
                position += 1
                numbers[fromEnd ? children.count - 1 - i : i] = position
            }
        }
        places.add(parent: p, end: p < 0 ? count : end(p), children: children, places: numbers)
        return Int(places.place(of: r, parent: p) ?? 0)
    }

    /// Whether `r` is the first (`fromEnd`: the last) of its parent's element children of
    /// its type (`:first-of-type`, `:last-of-type`), read from its type's postings around
    /// it, not from its siblings: the node of the type before it (after it) lies before its
    /// parent (after the parent's subtree), and then it is; or is a sibling, and then it is
    /// not; or lies in the subtree of a sibling (after it, of `r` too), whose type is then
    /// asked for, and the search goes on past that subtree. A set of one type in document
    /// order reads each node's neighbour and parent, where numbering the nodes
    /// (``placesOfType(_:fromEnd:)``) read each new parent's end and looked each node up:
    /// 4.2 of the 6.4 ms of `open_auction > bidder:first-of-type increase` on XMark.
    /// (Of a type means of a type here: not where the document declares namespaces.)
    ///
    /// - Complexity: O(1) per node, plus per sibling subtree passed (one that holds nodes of
    ///   the type) the walk up to it and a search; each sibling is passed for one node of
    ///   the type among its parent's children at most, in each direction.
    mutating func isFirstOfType(_ r: Int32, fromEnd: Bool) throws(QueryError) -> Bool {
        let t = type(r)
        if typeCursor.type != t { typeCursor = _PostingCursor(type: t, ranks: postings(of: t)) }
        guard let i = typeCursor.index(of: r) else { preconditionFailure("an element is not among its type's postings") }
        let ranks = typeCursor.ranks
        // (The end of the parent of a node a few on, asked for now: each new parent's is a
        // likely miss.)
        if fromEnd && i + 8 < ranks.upper { prefetchEnd(of: parent(ranks.ranks[i + 8])) }
        return try isFirstOfType(r, at: i, of: t, in: ranks, fromEnd: fromEnd)
    }

    /// ``isFirstOfType(_:fromEnd:)`` for `r`, of type `t`, found at index `i` of the
    /// type's postings `ranks`.
    mutating func isFirstOfType(_ r: Int32, at i: Int, of t: Int32, in ranks: _DocumentIndex._TypeRanks, fromEnd: Bool) throws(QueryError) -> Bool {
        let p = parent(r)
        var read = 1
        var first = true
        var j = fromEnd ? i + 1 : i - 1
        while j >= ranks.lower && j < ranks.upper {
            let y = ranks.ranks[j]
            // Before the parent, or after its subtree: no sibling of the type on that side.
            if fromEnd ? y >= (p < 0 ? count : end(p)) : y <= p { break }
            // The child of p whose subtree holds y (y itself, if its parent is p).
            var s = y
            var q = parent(s)
            while q != p {
                s = q
                q = parent(s)
                read += 1
            }
            // (`y` is of the type, being in its postings: its type is not read.)
            if s != r && (s == y || type(s) == t) {
                first = false
                break
            }
            // `r` itself (a node of the type in its own subtree), or a sibling of another type.
            j = fromEnd ? ranks.seek(end(s), from: j + 1) : ranks.seek(s, from: ranks.lower) - 1
            read += 1
        }
        try spend(read, at: 0)
        return first
    }

    /// Whether `condition` is `:first-of-type` (`[false]`), `:last-of-type` (`[true]`) or
    /// `:only-of-type` (both: an `:is()` of a universal compound with the two), and which.
    static func ofTypeEnds(_ condition: _Condition) -> [Bool]? {
        switch condition {
        case .nth(0, 1, let fromEnd, true): return [fromEnd]
        case .is(let list):
            guard list.count == 1, list[0].compounds.count == 1, let only = list.first?.compounds.first,
                  only.name == nil, !only.inNoNamespace, !only.conditions.isEmpty else { return nil }
            var ends: [Bool] = []
            for c in only.conditions {
                guard case .nth(0, 1, let fromEnd, true) = c else { return nil }
                ends.append(fromEnd)
            }
            return ends
        default: return nil
        }
    }

    /// The nodes of `set` (each of type `t`, in document order) with no sibling of type `t`
    /// before them (after them, with `fromEnd`): ``isFirstOfType(_:fromEnd:)`` for a whole
    /// set, each node looked up from where the last one was found in the type's postings,
    /// and not through the per-condition match (an enum copied, the postings retained, for
    /// every node).
    ///
    /// - Complexity: O(|set| log d), d the postings between two nodes of the set, plus the
    ///   sibling subtrees passed (see ``isFirstOfType(_:fromEnd:)``).
    mutating func keptFirstOfType(_ set: [_Key], type t: Int32, fromEnd: Bool) throws(QueryError) -> [_Key] {
        let ranks = postings(of: t)
        var cursor = _PostingCursor(type: t, ranks: ranks)
        var kept: [_Key] = []
        for (k, key) in set.enumerated() {
            // (For the last of a type, the end of the parent of a node a few on: each new
            // parent's is a likely miss.)
            if fromEnd && k + 8 < set.count { prefetchEnd(of: parent(set[k + 8].rank)) }
            guard let i = cursor.index(of: key.rank) else { preconditionFailure("a node of the type is not among its postings") }
            if try isFirstOfType(key.rank, at: i, of: t, in: ranks, fromEnd: fromEnd) { kept.append(key) }
        }
        return kept
    }

    /// The place of each node of type `t` among its parent's children of that type, from
    /// the first or the last: one pass over the type's postings (in document order, or the
    /// reverse) with a stack of the parents whose children of the type were met, each an
    /// ancestor of the next (a node met inside an earlier sibling's subtree, or in another
    /// child's between two, pushes its own parent above its siblings' and is popped when
    /// the pass leaves that subtree).
    ///
    /// - Complexity: O(the type's nodes)
    mutating func placesOfType(_ t: Int32, fromEnd: Bool) throws(QueryError) -> _TypePlaces {
        let ranks = postings(of: t)
        let n = ranks.upper - ranks.lower
        try spend(n + 1, at: 0)
        var places = [Int32](repeating: 0, count: n)
        var stack: [(parent: Int32, end: Int32, count: Int32)] = []
        for k in 0 ..< n {
            let i = fromEnd ? n - 1 - k : k
            let x = ranks.ranks[ranks.lower + i]
            // The end of the parent of a node a few on, asked for now: each new parent's end
            // is read where it is pushed, a cache miss each (the parents lie far apart).
            if k + 8 < n { prefetchEnd(of: parent(ranks.ranks[ranks.lower + (fromEnd ? n - 9 - k : k + 8)])) }
            let q = parent(x)
            while let top = stack.last, !(top.parent < x && x < top.end) { stack.removeLast() }
            if let top = stack.last, top.parent == q {
                stack[stack.count - 1].count += 1
                places[i] = top.count + 1
            } else {
                stack.append((q, q < 0 ? count : end(q), 1))
                places[i] = 1
            }
        }
        return _TypePlaces(type: t, ranks: ranks, places: places)
    }

    mutating func nextElementSibling(_ r: Int32) -> Int32? {
        let p = parent(r)
        let stop = p < 0 ? count : end(p)
        var s = end(r)
        while s < stop {
            if isElement(s) { return s }
            s = end(s)
        }
        return nil
    }

    mutating func previousElementSiblings(_ r: Int32) -> [Int32] {
        let p = parent(r)
        var s = p < 0 ? 0 : p + 1
        var out: [Int32] = []
        while s < r {
            if isElement(s) { out.append(s) }
            s = end(s)
        }
        return out
    }

    /// Whether rank `r` matches `complex` up to its compound `i`, read from right to left.
    /// With an `anchor` (`:has()`'s subject and the relative combinator), the first
    /// compound's element must also be related to it so; without, anything before it is.
    mutating func matches(_ r: Int32, _ complex: _ComplexSelector, _ i: Int,
                          anchor: (node: Int32, combinator: _Combinator)? = nil) throws(QueryError) -> Bool {
        try spend(1, at: 0)
        guard try matchesCompound(r, complex.compounds[i]) else { return false }
        if i == 0 {
            guard let (x, combinator) = anchor else { return true }
            switch combinator {
            case .child: return parent(r) == x
            case .descendant: return r > x && r < end(x)
            case .nextSibling: return previousElementSiblings(r).last == x
            case .subsequentSibling: return parent(r) == parent(x) && r > x
            }
        }
        switch complex.combinators[i - 1] {
        case .child:
            let p = parent(r)
            return p >= 0 && isElement(p) ? try matches(p, complex, i - 1, anchor: anchor) : false
        case .descendant:
            var p = parent(r)
            while p >= 0 {
                if isElement(p), try matches(p, complex, i - 1, anchor: anchor) { return true }
                p = parent(p)
            }
            return false
        case .nextSibling:
            guard let s = previousElementSiblings(r).last else { return false }
            return try matches(s, complex, i - 1, anchor: anchor)
        case .subsequentSibling:
            for s in previousElementSiblings(r) where try matches(s, complex, i - 1, anchor: anchor) { return true }
            return false
        }
    }

    /// `:has(relative)` on rank `x`: some element after it matches the relative selector
    /// with its first compound related to `x` by the relative combinator.
    mutating func has(_ x: Int32, _ relative: _RelativeSelector) throws(QueryError) -> Bool {
        let siblingsToo = relative.combinator == .nextSibling || relative.combinator == .subsequentSibling
            || relative.complex.combinators.contains { $0 == .nextSibling || $0 == .subsequentSibling }
        let p = parent(x)
        let stop = siblingsToo ? (p < 0 ? count : end(p)) : end(x)
        var y = x + 1
        try spend(Int(stop - y), at: 0)
        let last = relative.complex.compounds.count - 1
        while y < stop {
            if isElement(y), try matches(y, relative.complex, last, anchor: (x, relative.combinator)) { return true }
            y += 1
        }
        return false
    }
}

extension _Condition {
    /// A condition on an attribute as `[name op value i]`: `#id` is `[id=...]`, `.c` is
    /// `[class~=c]`; `nil` for any other condition.
    var onAttribute: (name: String, op: _AttributeOperator?, value: [UInt8], ignoreCase: Bool)? {
        switch self {
        case .id(let v): return ("id", .equal, v, false)
        case .className(let v): return ("class", .includes, v, false)
        case .attribute(let name, let op, let v, let ignoreCase): return (name, op, v, ignoreCase)
        default: return nil
        }
    }
}

/// A CSS condition on an attribute, its name's type looked up for one evaluation (-1: no
/// node has that name): `#id` is `[id=...]`, `.c` is `[class~=c]`. Plain values, so that
/// checking one on an element retains nothing.
struct _ResolvedAttribute {
    /// The type of a condition that is not on an attribute.
    static let notAnAttribute: Int32 = -2
    var type: Int32
    var op: _AttributeOperator?
    var value: UnsafeBufferPointer<UInt8>
    var ignoreCase: Bool
}

/// A compound's conditions with those on attributes resolved; their values copied into one
/// buffer that lives as long as this.
final class _ResolvedAttributes {
    let items: UnsafeMutableBufferPointer<_ResolvedAttribute>
    /// The number of conditions (`items` holds one more if there are none).
    let count: Int
    private let bytes: UnsafeMutableBufferPointer<UInt8>
    /// Whether a condition reads the element's attributes: one names an attribute that some
    /// node has (the others fail with no read, or are not on attributes).
    var readsAttributes: Bool { (0 ..< count).contains { items[$0].type >= 0 } }

    init(_ conditions: [_Condition]) {
        bytes = .allocate(capacity: max(1, conditions.reduce(0) { $0 + ($1.onAttribute?.value.count ?? 0) }))
        items = .allocate(capacity: max(1, conditions.count))
        count = conditions.count
        var at = 0
        for (i, c) in conditions.enumerated() {
            var item = _ResolvedAttribute(type: _ResolvedAttribute.notAnAttribute, op: nil, value: UnsafeBufferPointer(start: nil, count: 0), ignoreCase: false)
            if let a = c.onAttribute {
                let v = a.value
                _ = UnsafeMutableBufferPointer(rebasing: bytes[at ..< at + v.count]).initialize(from: v)
                item.value = UnsafeBufferPointer(rebasing: bytes[at ..< at + v.count])
                at += v.count
                (item.type, item.op, item.ignoreCase) = (-1, a.op, a.ignoreCase)
            }
            items[i] = item
        }
    }

    deinit {
        items.deallocate()
        bytes.deallocate()
    }
}

extension ViewTree {
    /// The elements that match `selector`, in document order, each once: what
    /// `document.querySelectorAll` returns; with `context`, those of them inside its
    /// subtree (as `element.querySelectorAll`: the selector matched against the whole
    /// document, its results kept below `context`). With `threads` above 1, a scan of many
    /// elements is shared among that many threads (joined before this returns); the
    /// answer is the same.
    ///
    /// - Throws: ``QueryError`` if matching needs more work than `budget` (about a node
    ///   visited each; ``XPath/defaultBudget(nodes:)`` if `nil`).
    /// - Complexity: O(nodes visited), after an O(n) index on the first query of a version.
    public func select(_ selector: CSSSelector, from context: NodeID? = nil, budget: Int? = nil, threads: Int = 1) throws(QueryError) -> [NodeID] {
        if let context { _storage.check(context) }
        let index = _DocumentIndex.of(self)
        let result = _withWriterView { view -> Result<[_Key], QueryError> in
            var evaluator = _XPathEvaluator(index: index, view: view, budget: budget ?? XPath.defaultBudget(nodes: count), threads: threads)
            return Result { () throws(QueryError) -> [_Key] in
                var keys = try evaluator.select(selector.list)
                if let context {
                    let r = evaluator.rank(ofSlot: context.index)
                    let stop = evaluator.end(r)
                    keys = keys.filter { $0.rank > r && $0.rank < stop }
                }
                return keys
            }
        }
        return index.nodeIDs(try result.get().map(\.rank), of: self)
    }
}

/// The places of the element children of a chain of parents, each an ancestor of the next
/// (see `siblingIndex`): a set in document order asks about the children of the
/// ancestors of its current node only, so a parent whose subtree lies behind it is dropped,
/// and no column of a place per node is made (19 MB, written and freed, for a selector
/// over XMark's 4.7 M nodes).
struct _SiblingPlaces {
    /// The parents whose children a variant of `siblingIndex` walks before, of a type, it
    /// numbers the type's postings instead: a small set's parents are walked, a large
    /// set's type numbered once.
    static let walksBeforePostings = 256
    /// The parents whose children were walked for this variant.
    private(set) var walks = 0
    /// Per parent numbered: its rank (-1 for the roots' "parent"), its end (the rank after
    /// its subtree), and where its children start in ``children``.
    private var parents: [(rank: Int32, end: Int32, from: Int)] = []
    /// The parents' element children, in document order, and their places.
    private var children: [Int32] = []
    private var places: [Int32] = []

    /// The place of `r`, a child of `p`, if `p`'s children are numbered; the parents that
    /// are not ancestors of `r` dropped.
    mutating func place(of r: Int32, parent p: Int32) -> Int32? {
        while let last = parents.last, !(last.rank < r && r < last.end) {
            parents.removeLast()
            children.removeSubrange(last.from...)
            places.removeSubrange(last.from...)
        }
        guard let last = parents.last, last.rank == p else { return nil }
        // Binary search among the parent's children.
        var (lo, hi) = (last.from, children.count)
        while lo < hi {
            let mid = (lo + hi) / 2
            if children[mid] < r { lo = mid + 1 } else { hi = mid }
        }
        return lo < children.count && children[lo] == r ? places[lo] : nil
    }

    /// Parent `p`'s element `children` (in document order) and their `places`: `p` a
    /// descendant of the last parent kept (``place(of:parent:)`` dropped the others).
    mutating func add(parent p: Int32, end: Int32, children more: [Int32], places numbers: [Int32]) {
        walks += 1
        parents.append((p, end, children.count))
        children += more
        places += numbers
    }
}

/// The places of one type's nodes among their siblings of the type, aligned with its
/// postings (see `placesOfType`), and where the last one asked for lies in them.
struct _TypePlaces {
    private var cursor: _PostingCursor
    let places: [Int32]

    init(type: Int32, ranks: _DocumentIndex._TypeRanks, places: [Int32]) {
        (cursor, self.places) = (_PostingCursor(type: type, ranks: ranks), places)
    }

    static let none = _TypePlaces(type: -1, ranks: .none, places: [])

    /// The type (-1 for none yet).
    var type: Int32 { cursor.type }

    /// The place of `r`, a node of the type (see ``_PostingCursor/index(of:)``).
    mutating func place(of r: Int32) -> Int32? {
        cursor.index(of: r).map { places[$0 - cursor.ranks.lower] }
    }
}

/// A type's postings, and where the last rank asked for lies in them.
struct _PostingCursor {
    /// The type (-1 for none yet).
    let type: Int32
    let ranks: _DocumentIndex._TypeRanks
    /// Where the last rank asked for lies: a set in document order asks for the next, or
    /// one a little further.
    private var at: Int

    init(type: Int32, ranks: _DocumentIndex._TypeRanks) {
        (self.type, self.ranks, at) = (type, ranks, ranks.lower)
    }

    static let none = _PostingCursor(type: -1, ranks: .none)

    /// The index of `r` in the postings (`nil` if it is not there): looked for from the
    /// last one's on, then by steps that double from there (by halves from the start where
    /// `r` lies before it).
    @inline(__always) mutating func index(of r: Int32) -> Int? {
        var i = at
        while i < ranks.upper && i < at + 4 && ranks.ranks[i] < r { i += 1 }
        if !(i < ranks.upper && ranks.ranks[i] == r) {
            // (From where the look ended: `seek` goes back to the start if `r` lies before.)
            i = ranks.seek(r, from: i)
            guard i < ranks.upper && ranks.ranks[i] == r else { return nil }
        }
        at = i
        return i
    }
}
