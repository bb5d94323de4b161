import RelativeViewCore

/// Seeded XML and JSON documents of the shapes `scripts/make-documents.py` writes (the same
/// rules, another random generator, so not the same bytes), for the import benchmarks of
/// `Benchmarks/` and for tests.
public enum SampleDocuments {
    /// About `elements` elements under one root, up to 24 deep, named from a small
    /// vocabulary, a quarter with an `id`, a fifth with a `class`, some with a `tag`, some
    /// with text (one with an entity reference), some empty: about 18 bytes per element.
    ///
    /// - Complexity: O(elements)
    public static func xml(elements: Int, seed: UInt64) -> [UInt8] {
        var rng = SplitMix64(seed: seed)
        let names = ["div", "span", "p", "a", "li", "ul", "item", "node", "row", "cell", "g", "rect", "text", "group"]
        let classes = ["a", "b c", "header", "x y z", "col-6 main"]
        let texts = ["hi", "some text", "x &amp; y", "42", "a longer run of text"]
        var out = Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<root>\n".utf8)
        out.reserveCapacity(elements * 20)
        var stack: [String] = []
        var count = 1
        func chance(_ p: Double) -> Bool { Double.random(in: 0 ..< 1, using: &rng) < p }
        while count < elements {
            if !stack.isEmpty && (chance(0.45) || stack.count >= 24) {
                out += Array("</\(stack.removeLast())>".utf8)
                if chance(0.3) { out.append(UInt8(ascii: "\n")) }
                continue
            }
            let name = names.randomElement(using: &rng)!
            var attributes = ""
            if chance(0.25) { attributes += " id=\"n\(count)\"" }
            if chance(0.2) { attributes += " class=\"\(classes.randomElement(using: &rng)!)\"" }
            if chance(0.15) { attributes += " tag=\"\(Int.random(in: 0 ..< 20, using: &rng))\"" }
            count += 1
            if chance(0.45) {
                out += Array("<\(name)\(attributes)/>".utf8)
            } else {
                out += Array("<\(name)\(attributes)>".utf8)
                if chance(0.4) { out += Array(texts.randomElement(using: &rng)!.utf8) }
                stack.append(name)
            }
        }
        while let name = stack.popLast() { out += Array("</\(name)>".utf8) }
        out += Array("\n</root>\n".utf8)
        return out
    }

    /// An array of about `values` random values (the containers open when the count is
    /// reached are finished): a fifth of them objects or arrays of 1 to 8 members (short
    /// member names, up to 12 deep), the rest numbers, short strings, booleans and nulls:
    /// about 7 bytes per value.
    ///
    /// - Complexity: O(values)
    public static func json(values: Int, seed: UInt64) -> [UInt8] {
        var rng = SplitMix64(seed: seed)
        let keys = ["id", "name", "v", "x", "y", "tags", "kind", "ok", "w", "h", "items", "a", "b"]
        var out: [UInt8] = [UInt8(ascii: "[")]
        out.reserveCapacity(values * 8)
        var count = 0
        // Iterative: each open container, the members it has left, and whether it has one.
        var open: [(object: Bool, left: Int, started: Bool)] = []
        var first = true
        while true {
            if let top = open.last {
                if top.left == 0 {
                    out.append(top.object ? UInt8(ascii: "}") : UInt8(ascii: "]"))
                    open.removeLast()
                    continue
                }
                if top.started { out.append(UInt8(ascii: ",")) }
                open[open.count - 1].started = true
                open[open.count - 1].left -= 1
                if top.object { out += Array("\"\(keys.randomElement(using: &rng)!)\":".utf8) }
            } else {
                if count >= values { break }
                if !first { out += Array(",\n".utf8) }
                first = false
            }
            count += 1
            let t = Double.random(in: 0 ..< 1, using: &rng)
            if open.count < 12 && t < 0.18 {
                let object = Bool.random(using: &rng)
                out.append(object ? UInt8(ascii: "{") : UInt8(ascii: "["))
                open.append((object, Int.random(in: 1 ... 8, using: &rng), false))
            } else if t < 0.6 {
                out += Array(String(Int.random(in: 0 ..< 1000, using: &rng)).utf8)
            } else if t < 0.8 {
                out.append(UInt8(ascii: "\""))
                for _ in 0 ..< Int.random(in: 1 ... 6, using: &rng) { out.append(UInt8(ascii: "a") + UInt8.random(in: 0 ..< 8, using: &rng)) }
                out.append(UInt8(ascii: "\""))
            } else if t < 0.9 {
                out += Array((Bool.random(using: &rng) ? "true" : "false").utf8)
            } else {
                out += Array("null".utf8)
            }
        }
        out += Array("]\n".utf8)
        return out
    }
}
