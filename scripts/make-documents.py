#!/usr/bin/env python3
"""Writes the seeded documents that scripts/import-vs-peers.sh imports.

Usage: scripts/make-documents.py DIR [--xml-elements N] [--json-values N] [--seed S]
                                   [--shape-bytes B]

DIR/doc.xml: N elements (default 1,000,000, about 18 MB) in a random tree under one root,
  up to 24 deep, named from a small vocabulary, a quarter with an `id`, a fifth with a
  `class`, some with a `tag`, some with text (one with an entity reference), some empty.
DIR/doc.json: about N values (default 23,300,000, about 155 MB): an array of random
  values, a fifth of them objects or arrays of 1 to 8 members (short member names, up to
  12 deep), the rest numbers, short strings, booleans and nulls.
With --shape-bytes B (B > 0), also documents of other shapes, about B bytes each, so that
an import is measured on more than the project's own shape:
DIR/shape-mixed.xml: articles of prose, text mixed with inline elements (b, i, em, a with
  href), references, non-ASCII characters;
DIR/shape-attributes.xml: records of 4 to 12 attributes each, a few values with references;
DIR/shape-namespaces.xml: elements and attributes with prefixes (svg, xlink, dc), default
  and prefixed declarations at the root and further down;
DIR/shape-pretty.json: the JSON generator's values pretty-printed (two spaces a level);
DIR/shape-floats.json: records of floats, negative numbers and exponents (e, E, signs);
DIR/shape-strings.json: long strings with escapes (\\n, \\", \\\\, \\t, \\/), \\u sequences
  (surrogate pairs among them) and raw UTF-8;
DIR/shape-deep.json: objects and arrays nested up to 900 deep (simdjson's DOM allows 1024).
The same seed gives the same bytes.
"""
import argparse
import os
import random


def write_xml(path, elements, seed):
    r = random.Random(seed)
    names = ["div", "span", "p", "a", "li", "ul", "item", "node", "row", "cell", "g", "rect", "text", "group"]
    classes = ["a", "b c", "header", "x y z", "col-6 main"]
    texts = ["hi", "some text", "x &amp; y", "42", "a longer run of text"]
    count = 1
    stack = []
    with open(path, "w", encoding="utf-8") as f:
        out = ['<?xml version="1.0" encoding="UTF-8"?>\n<root>\n']
        while count < elements:
            if stack and (r.random() < 0.45 or len(stack) >= 24):
                out.append("</%s>" % stack.pop())
                if r.random() < 0.3:
                    out.append("\n")
                continue
            name = r.choice(names)
            attrs = ""
            if r.random() < 0.25:
                attrs += ' id="n%d"' % count
            if r.random() < 0.2:
                attrs += ' class="%s"' % r.choice(classes)
            if r.random() < 0.15:
                attrs += ' tag="%d"' % r.randrange(20)
            count += 1
            if r.random() < 0.45:
                out.append("<%s%s/>" % (name, attrs))
            else:
                out.append("<%s%s>" % (name, attrs))
                if r.random() < 0.4:
                    out.append(r.choice(texts))
                stack.append(name)
            if len(out) > 100000:
                f.write("".join(out))
                out.clear()
        while stack:
            out.append("</%s>" % stack.pop())
        out.append("\n</root>\n")
        f.write("".join(out))
    return count


def write_json(path, values, seed, pretty=False):
    r = random.Random(seed)
    keys = ["id", "name", "v", "x", "y", "tags", "kind", "ok", "w", "h", "items", "a", "b"]
    count = 0
    out = []

    def newline(depth):
        return "\n" + "  " * depth if pretty else ""

    def value(depth):
        nonlocal count
        count += 1
        t = r.random()
        if depth < 12 and t < 0.18:
            n = r.randint(1, 8)
            if r.random() < 0.5:
                out.append("[")
                for i in range(n):
                    out.append(("," if i else "") + newline(depth + 2))
                    value(depth + 1)
                out.append(newline(depth + 1) + "]")
            else:
                out.append("{")
                for i in range(n):
                    out.append(("," if i else "") + newline(depth + 2))
                    out.append(('"%s": ' if pretty else '"%s":') % keys[r.randrange(len(keys))])
                    value(depth + 1)
                out.append(newline(depth + 1) + "}")
        elif t < 0.6:
            out.append(str(r.randrange(1000)))
        elif t < 0.8:
            out.append('"%s"' % "".join(r.choice("abcdefgh") for _ in range(r.randint(1, 6))))
        elif t < 0.9:
            out.append(r.choice(["true", "false"]))
        else:
            out.append("null")

    with open(path, "w", encoding="utf-8") as f:
        f.write("[")
        first = True
        while count < values:
            if not first:
                out.append(",\n  " if pretty else ",\n")
            elif pretty:
                out.append("\n  ")
            first = False
            value(0)
            if len(out) > 100000:
                f.write("".join(out))
                out.clear()
        out.append("]\n")
        f.write("".join(out))
    return count + 1


def write_chunks(path, size, seed, piece):
    """Writes pieces made by piece(r, n) (n counts from 0) until the file holds about size bytes."""
    r = random.Random(seed)
    written, n, out = 0, 0, []
    with open(path, "w", encoding="utf-8") as f:
        while written < size:
            text = piece(r, n)
            out.append(text)
            written += len(text.encode("utf-8"))
            n += 1
            if len(out) > 10000:
                f.write("".join(out))
                out.clear()
        f.write("".join(out))


WORDS = ["the", "of", "and", "tree", "index", "node", "query", "relative", "view", "order", "document", "caf\u00e9",
         "na\u00efve", "Stra\u00dfe", "\u6728", "\u0434\u0435\u0440\u0435\u0432\u043e", "x &amp; y", "&lt;tag&gt;", "&#233;t\u00e9", "&#x1F333;"]


def prose(r, n):
    return " ".join(r.choice(WORDS) for _ in range(n))


def mixed_article(r, n):
    parts = ['<article id="a%d" lang="%s">\n<title>%s</title>\n' % (n, r.choice(["en", "fr", "de"]), prose(r, 4))]
    for _ in range(r.randint(2, 6)):
        p = ["<p>"]
        for _ in range(r.randint(2, 8)):
            p.append(prose(r, r.randint(1, 12)) + " ")
            k = r.random()
            if k < 0.3:
                p.append("<b>%s</b> " % prose(r, r.randint(1, 3)))
            elif k < 0.5:
                p.append("<i>%s <em>%s</em></i> " % (prose(r, 2), prose(r, 1)))
            elif k < 0.7:
                p.append('<a href="https://example.org/%d?a=1&amp;b=%d">%s</a> ' % (r.randrange(10**6), r.randrange(100), prose(r, 2)))
            elif k < 0.75:
                p.append("<br/>")
        p.append("</p>\n")
        parts.append("".join(p))
    parts.append("</article>\n")
    return "".join(parts)


def attribute_record(r, n):
    names = ["type", "name", "born", "score", "lang", "flags", "note", "ref", "x", "y", "width", "height", "unit", "state"]
    values = ["person", "Ada Lovelace", "1815-12-10", "0.93", "en", "a b c", "x &amp; y", "#r%d" % r.randrange(n + 1),
              "12.5", "-3", "100%", "px", "ok", "caf\u00e9", "&quot;quoted&quot;"]
    def attributes(k):
        return "".join(' %s="%s"' % (name, r.choice(values)) for name in r.sample(names, k))
    items = "".join("<item%s/>" % attributes(r.randint(4, 8)) for _ in range(r.randint(0, 3)))
    return '<record id="r%d"%s>%s</record>\n' % (n, attributes(r.randint(4, 12)), items)


def namespaced_group(r, n):
    parts = ['<svg:g id="g%d" svg:class="layer">' % n]
    for _ in range(r.randint(1, 6)):
        k = r.random()
        if k < 0.4:
            parts.append('<svg:rect x="%d" y="%d" width="10" height="20" xlink:href="#g%d"/>' % (r.randrange(999), r.randrange(999), r.randrange(n + 1)))
        elif k < 0.6:
            parts.append("<dc:title>%s</dc:title>" % prose(r, 3))
        elif k < 0.8:
            parts.append('<m:math xmlns:m="http://www.w3.org/1998/Math/MathML"><m:mi>x</m:mi><m:mo>=</m:mo><m:mn>%d</m:mn></m:math>' % r.randrange(100))
        else:
            parts.append('<meta xmlns="urn:example:meta" key="k%d">%s</meta>' % (r.randrange(50), prose(r, 2)))
    parts.append("</svg:g>\n")
    return "".join(parts)


def write_xml_shape(path, size, seed, root, piece):
    write_chunks(path + ".body", size, seed, piece)
    with open(path, "w", encoding="utf-8") as f, open(path + ".body", encoding="utf-8") as body:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n%s\n' % root[0])
        while True:
            block = body.read(1 << 20)
            if not block:
                break
            f.write(block)
        f.write("%s\n" % root[1])
    os.remove(path + ".body")


def float_record(r, n):
    def number():
        k = r.random()
        if k < 0.3:
            return repr(r.uniform(-180, 180))
        if k < 0.5:
            return "%.6e" % r.uniform(-1e10, 1e10)
        if k < 0.6:
            return "%dE%+d" % (r.randrange(1, 10), r.randrange(-300, 300))
        if k < 0.8:
            return str(r.randrange(-10**12, 10**12))
        return "%.2f" % r.uniform(0, 1000)
    values = ",".join(number() for _ in range(r.randint(1, 8)))
    return '%s{"lat":%s,"lon":%s,"t":%s,"v":[%s]}' % ("," if n else "", number(), number(), number(), values)


def string_value(r):
    pieces = ["plain words and more", "\\\"quoted\\\"", "back\\\\slash", "line\\nbreak", "tab\\there", "\\/path\\/to",
              "\\u00e9t\\u00e9", "\\u6728\\u672c", "\\ud83c\\udf33 tree", "caf\u00e9", "\u0434\u0435\u0440\u0435\u0432\u043e", "\\u0000nul", "\\b\\f\\r"]
    return '"%s"' % " ".join(r.choice(pieces) for _ in range(r.randint(5, 40)))


def string_record(r, n):
    return '%s{"title":%s,"body":%s,"tags":[%s]}' % ("," if n else "", string_value(r), string_value(r),
                                                   ",".join(string_value(r) for _ in range(r.randint(0, 3))))


def deep_tower(r, n):
    depth = r.randint(50, 900)
    opens, closes = [], []
    for d in range(depth):
        if r.random() < 0.5:
            opens.append('{"k%d":%d,"next":' % (d % 10, d))
            closes.append("}")
        else:
            opens.append("[%d,true," % d)
            closes.append("]")
    return ("," if n else "") + "".join(opens) + "null" + "".join(reversed(closes))


def write_json_shape(path, size, seed, piece):
    write_chunks(path + ".body", size, seed, piece)
    with open(path, "w", encoding="utf-8") as f, open(path + ".body", encoding="utf-8") as body:
        f.write("[")
        while True:
            block = body.read(1 << 20)
            if not block:
                break
            f.write(block)
        f.write("]\n")
    os.remove(path + ".body")


SHAPES = {
    "shape-mixed.xml": lambda path, size, seed: write_xml_shape(path, size, seed, ("<articles>", "</articles>"), mixed_article),
    "shape-attributes.xml": lambda path, size, seed: write_xml_shape(path, size, seed, ("<records>", "</records>"), attribute_record),
    "shape-namespaces.xml": lambda path, size, seed: write_xml_shape(
        path, size, seed, ('<svg:svg xmlns:svg="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
                           'xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns="urn:example:default">', "</svg:svg>"), namespaced_group),
    "shape-pretty.json": None,  # the JSON generator, pretty-printed: sized by values, below
    "shape-floats.json": lambda path, size, seed: write_json_shape(path, size, seed, float_record),
    "shape-strings.json": lambda path, size, seed: write_json_shape(path, size, seed, string_record),
    "shape-deep.json": lambda path, size, seed: write_json_shape(path, size, seed, deep_tower),
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("dir")
    parser.add_argument("--xml-elements", type=int, default=1_000_000)
    parser.add_argument("--json-values", type=int, default=23_300_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--shape-bytes", type=int, default=0)
    args = parser.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    if args.xml_elements > 0:
        n = write_xml(os.path.join(args.dir, "doc.xml"), args.xml_elements, args.seed)
        print("doc.xml: %d elements, %d bytes" % (n, os.path.getsize(os.path.join(args.dir, "doc.xml"))))
    if args.json_values > 0:
        n = write_json(os.path.join(args.dir, "doc.json"), args.json_values, args.seed)
        print("doc.json: %d values, %d bytes" % (n, os.path.getsize(os.path.join(args.dir, "doc.json"))))
    if args.shape_bytes > 0:
        for name, write in SHAPES.items():
            path = os.path.join(args.dir, name)
            if write is None:
                # About 18 bytes a value pretty-printed (6.6 compact).
                write_json(path, max(1, args.shape_bytes // 18), args.seed, pretty=True)
            else:
                write(path, args.shape_bytes, args.seed)
            print("%s: %d bytes" % (name, os.path.getsize(path)))


if __name__ == "__main__":
    main()
