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
With --xmark-bytes B: DIR/xmark.xml, an XMark-shaped auction site of about B bytes; with
--jsonmark-bytes B: DIR/jsonmark.json, the same kind of site as JSON (scripts/query-vs-peers.sh);
with --nested-towers T: DIR/nested.xml, towers of nested div.
The same seed gives the same bytes.
"""
import argparse
import json
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


XMARK_WORDS = ("the of and to a in that is was he for it with as his on be at by i this had not are but from or have "
               "an they which one you were her all she there would their we him been has when who will more no if out so "
               "said what up its about into than them can only other new some could time these two may then do first any "
               "my now such like our over man me even most made after also did many before must through back years where "
               "much your way well down should because each just those people how too little state good very make world "
               "still own see men work long get here between both life being under never day same another know while last "
               "gold silver market auction bid seller buyer price ship region item quality rare vintage condition").split()
XMARK_REGIONS = ["africa", "asia", "australia", "europe", "namerica", "samerica"]
XMARK_COUNTRIES = ["United States", "Germany", "Japan", "Brazil", "Kenya", "France", "India", "Australia"]


class XMark:
    """An XMark-shaped auction site (Schmidt et al., VLDB 2002): regions of items with mixed-content
    descriptions (text with bold, keyword and emph, or nested parlists), categories and their graph,
    people with profiles and watches, open auctions with bidders, closed auctions with annotations.
    At factor 1.0 it has XMark's counts (21,750 items, 25,500 people, 12,000 open and 9,750 closed
    auctions, 1,000 categories)."""

    def __init__(self, factor, seed):
        self.r = random.Random(seed)
        self.items = max(6, int(21750 * factor))
        self.people = max(1, int(25500 * factor))
        self.open = max(1, int(12000 * factor))
        self.closed = max(1, int(9750 * factor))
        self.categories = max(1, int(1000 * factor))

    def words(self, lo, hi):
        r = self.r
        return " ".join(r.choice(XMARK_WORDS) for _ in range(r.randint(lo, hi)))

    def inline(self, depth):
        """Prose with inline bold, keyword and emph, nested a little."""
        r, out = self.r, []
        for _ in range(r.randint(1, 6)):
            out.append(self.words(2, 14))
            k = r.random()
            if k < 0.5:
                tag = r.choice(["bold", "keyword", "emph"])
                inner = self.inline(depth + 1) if depth < 2 and r.random() < 0.3 else self.words(1, 3)
                out.append(" <%s>%s</%s> " % (tag, inner, tag))
            else:
                out.append(" ")
        return "".join(out)

    def text(self):
        return "<text>%s</text>" % self.inline(0)

    def parlist(self, depth):
        r = self.r
        items = []
        for _ in range(r.randint(1, 4)):
            if depth < 3 and r.random() < 0.2:
                items.append("<listitem>%s</listitem>" % self.parlist(depth + 1))
            else:
                items.append("<listitem>%s</listitem>" % self.text())
        return "<parlist>%s</parlist>" % "".join(items)

    def description(self):
        return "<description>%s</description>" % (self.text() if self.r.random() < 0.7 else self.parlist(0))

    def date(self):
        r = self.r
        return "%02d/%02d/%d" % (r.randint(1, 12), r.randint(1, 28), r.randint(1998, 2001))

    def item(self, n):
        r = self.r
        mails = "".join("<mail><from>%s</from><to>%s</to><date>%s</date>%s</mail>" % (
            self.words(2, 3), self.words(2, 3), self.date(), self.text()) for _ in range(r.randint(0, 3)))
        cats = "".join('<incategory category="category%d"/>' % r.randrange(self.categories) for _ in range(r.randint(1, 4)))
        featured = ' featured="yes"' if r.random() < 0.1 else ""
        return ('<item id="item%d"%s><location>%s</location><quantity>%d</quantity><name>%s</name><payment>%s</payment>%s'
                '<shipping>%s</shipping>%s<mailbox>%s</mailbox></item>\n') % (
            n, featured, r.choice(XMARK_COUNTRIES), r.choice([1, 1, 1, 2, 3]), self.words(1, 4),
            r.choice(["Creditcard", "Money order", "Personal Check", "Cash"]), self.description(),
            self.words(3, 8), cats, mails)

    def person(self, n):
        r = self.r
        parts = ['<person id="person%d"><name>%s</name><emailaddress>mailto:p%d@example.org</emailaddress>' % (n, self.words(2, 2), n)]
        if r.random() < 0.5:
            parts.append("<phone>+%d (%d) %d</phone>" % (r.randint(1, 99), r.randint(10, 999), r.randint(1000000, 9999999)))
        if r.random() < 0.5:
            parts.append("<address><street>%d %s St</street><city>%s</city><country>%s</country><zipcode>%d</zipcode></address>" % (
                r.randint(1, 99), self.words(1, 1), self.words(1, 1), r.choice(XMARK_COUNTRIES), r.randint(10000, 99999)))
        if r.random() < 0.5:
            parts.append("<homepage>http://www.example.org/~p%d</homepage>" % n)
        if r.random() < 0.5:
            parts.append("<creditcard>%d %d %d %d</creditcard>" % tuple(r.randint(1000, 9999) for _ in range(4)))
        if r.random() < 0.5:
            interests = "".join('<interest category="category%d"/>' % r.randrange(self.categories) for _ in range(r.randint(0, 4)))
            extra = "".join(x for x in (
                "<education>%s</education>" % r.choice(["High School", "College", "Graduate School", "Other"]) if r.random() < 0.5 else "",
                "<gender>%s</gender>" % r.choice(["male", "female"]) if r.random() < 0.5 else "",
                "<business>%s</business>" % r.choice(["Yes", "No"]),
                "<age>%d</age>" % r.randint(18, 80) if r.random() < 0.5 else ""))
            parts.append('<profile income="%.2f">%s%s</profile>' % (r.uniform(5000, 150000), interests, extra))
        if r.random() < 0.5:
            parts.append("<watches>%s</watches>" % "".join(
                '<watch open_auction="open_auction%d"/>' % r.randrange(self.open) for _ in range(r.randint(0, 6))))
        parts.append("</person>\n")
        return "".join(parts)

    def annotation(self):
        return '<annotation><author person="person%d"/>%s<happiness>%d</happiness></annotation>' % (
            self.r.randrange(self.people), self.description(), self.r.randint(1, 10))

    def open_auction(self, n):
        r = self.r
        bidders = "".join('<bidder><date>%s</date><time>%02d:%02d:%02d</time><personref person="person%d"/><increase>%.2f</increase></bidder>' % (
            self.date(), r.randint(0, 23), r.randint(0, 59), r.randint(0, 59), r.randrange(self.people), r.uniform(1, 50))
            for _ in range(r.randint(0, 12)))
        reserve = "<reserve>%.2f</reserve>" % r.uniform(10, 500) if r.random() < 0.4 else ""
        privacy = "<privacy>%s</privacy>" % r.choice(["Yes", "No"]) if r.random() < 0.5 else ""
        return ('<open_auction id="open_auction%d"><initial>%.2f</initial>%s%s<current>%.2f</current>%s<itemref item="item%d"/>'
                '<seller person="person%d"/>%s<quantity>%d</quantity><type>%s</type><interval><start>%s</start><end>%s</end></interval>'
                '</open_auction>\n') % (
            n, r.uniform(1, 200), reserve, bidders, r.uniform(1, 600), privacy, r.randrange(self.items), r.randrange(self.people),
            self.annotation(), r.choice([1, 1, 2]), r.choice(["Regular", "Featured", "Dutch"]), self.date(), self.date())

    def closed_auction(self, n):
        r = self.r
        return ('<closed_auction><seller person="person%d"/><buyer person="person%d"/><itemref item="item%d"/><price>%.2f</price>'
                '<date>%s</date><quantity>%d</quantity><type>%s</type>%s</closed_auction>\n') % (
            r.randrange(self.people), r.randrange(self.people), r.randrange(self.items), r.uniform(1, 1000), self.date(),
            r.choice([1, 1, 2]), r.choice(["Regular", "Featured"]), self.annotation())

    def category(self, n):
        return '<category id="category%d"><name>%s</name>%s</category>\n' % (n, self.words(1, 3), self.description())

    def write(self, f):
        r = self.r
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n<site>\n<regions>\n')
        n = 0
        for i, region in enumerate(XMARK_REGIONS):
            f.write("<%s>\n" % region)
            share = self.items // len(XMARK_REGIONS) + (1 if i < self.items % len(XMARK_REGIONS) else 0)
            f.write("".join(self.item(n + k) for k in range(share)))
            n += share
            f.write("</%s>\n" % region)
        f.write("</regions>\n<categories>\n")
        f.write("".join(self.category(k) for k in range(self.categories)))
        f.write("</categories>\n<catgraph>\n")
        f.write("".join('<edge from="category%d" to="category%d"/>\n' % (r.randrange(self.categories), r.randrange(self.categories))
                        for _ in range(self.categories)))
        f.write("</catgraph>\n<people>\n")
        for start in range(0, self.people, 5000):
            f.write("".join(self.person(k) for k in range(start, min(self.people, start + 5000))))
        f.write("</people>\n<open_auctions>\n")
        for start in range(0, self.open, 5000):
            f.write("".join(self.open_auction(k) for k in range(start, min(self.open, start + 5000))))
        f.write("</open_auctions>\n<closed_auctions>\n")
        for start in range(0, self.closed, 5000):
            f.write("".join(self.closed_auction(k) for k in range(start, min(self.closed, start + 5000))))
        f.write("</closed_auctions>\n</site>\n")


# Bytes of an XMark document at factor 1.0 written by XMark above (measured at seed 1).
XMARK_BYTES_AT_FACTOR_1 = 75_300_000


def write_xmark(path, size, seed):
    with open(path, "w", encoding="utf-8") as f:
        XMark(size / XMARK_BYTES_AT_FACTOR_1, seed).write(f)


JSON_FIRST = ["Anna", "Ben", "Carla", "Dmitri", "Elena", "Farid", "Greta", "Hiro", "Ines", "Jonas", "Aiko", "Amir"]
JSON_LAST = ["Berg", "Bauer", "Cruz", "Dahl", "Evans", "Fischer", "Garcia", "Haas", "Ito", "Jensen", "Kaur", "Lopez"]
JSON_WORDS = ["gold", "silver", "lamp", "chair", "vintage", "rare", "blue", "red", "large", "small", "wooden",
              "glass", "clock", "camera", "bicycle", "guitar", "stamp", "coin", "print", "vase", "old", "new"]


def write_jsonmark(path, size, seed):
    """An auction site as JSON, shaped as XMark's (and at about the same bytes a record): regions
    of items (descriptions with keywords, mailboxes), categories, people (optional phone, address,
    homepage and profile), open auctions with bidders and closed auctions with annotations. Member
    names are unique in each object, numbers plain decimals, so that every JSON reader (jq's and
    Python's keep one member of a duplicated name) reads the same values."""
    r = random.Random(seed)
    units = max(12, size // 1330)
    items, people, opened, closed, categories = units, units, max(1, units // 2), max(1, units // 2), max(1, units // 20)

    def words(lo, hi):
        return " ".join(r.choice(JSON_WORDS) for _ in range(r.randint(lo, hi)))

    def price(lo, hi):
        return round(r.uniform(lo, hi), 2)

    def date():
        return "%04d-%02d-%02d" % (r.randint(1998, 2025), r.randint(1, 12), r.randint(1, 28))

    def person_name():
        return r.choice(JSON_FIRST) + " " + r.choice(JSON_LAST)

    def description():
        return {"text": words(8, 40), "keywords": [r.choice(JSON_WORDS) for _ in range(r.randint(0, 5))]}

    def item(n):
        return {"id": "item%d" % n, "name": words(1, 4), "location": r.choice(XMARK_COUNTRIES),
                "quantity": r.randint(1, 5), "price": price(1, 1000), "payment": r.choice(["Creditcard", "Cash", "Money order"]),
                "featured": r.random() < 0.1, "shipping": r.choice([None, "Will ship internationally", "Buyer pays"]),
                "incategory": ["category%d" % r.randrange(categories) for _ in range(r.randint(1, 4))],
                "description": description(),
                "mailbox": [{"from": person_name(), "to": person_name(), "date": date(), "text": words(3, 15)}
                            for _ in range(r.choice([0, 0, 1, 1, 2, 3, 4]))]}

    def person(n):
        p = {"id": "person%d" % n, "name": person_name()}
        p["email"] = "mailto:%s@%s%d.com" % (p["name"].split()[1], r.choice(["mail", "post", "web"]), r.randint(0, 9))
        if r.random() < 0.5:
            p["phone"] = "+%d (%d) %d" % (r.randint(1, 99), r.randint(10, 999), r.randint(1000000, 9999999))
        if r.random() < 0.6:
            p["address"] = {"street": "%d %s St" % (r.randint(1, 99), r.choice(JSON_LAST)), "city": r.choice(JSON_LAST) + "ville",
                            "country": r.choice(XMARK_COUNTRIES), "zipcode": r.randint(10000, 99999)}
        if r.random() < 0.3:
            p["homepage"] = "http://www.example.com/~%d" % n
        if r.random() < 0.7:
            profile = {"interests": ["category%d" % r.randrange(categories) for _ in range(r.randint(0, 5))],
                       "business": r.random() < 0.5}
            if r.random() < 0.8:
                profile["income"] = price(9000, 120000)
            if r.random() < 0.4:
                profile["education"] = r.choice(["High School", "College", "Graduate School", "Other"])
            if r.random() < 0.5:
                profile["age"] = r.randint(18, 90)
            p["profile"] = profile
        p["watches"] = ["open_auction%d" % r.randrange(opened) for _ in range(r.choice([0, 0, 1, 2, 4]))]
        return p

    def open_auction(n):
        a = {"id": "open_auction%d" % n, "initial": price(1, 300)}
        if r.random() < 0.4:
            a["reserve"] = price(50, 800)
        a["bidders"] = [{"date": date(), "time": "%02d:%02d:%02d" % (r.randint(0, 23), r.randint(0, 59), r.randint(0, 59)),
                         "personref": "person%d" % r.randrange(people), "increase": price(1, 50)}
                        for _ in range(r.choice([0, 1, 1, 2, 3, 5, 8, 12]))]
        a["current"] = round(a["initial"] + sum(b["increase"] for b in a["bidders"]), 2)
        a.update({"itemref": "item%d" % r.randrange(items), "seller": "person%d" % r.randrange(people),
                  "quantity": r.randint(1, 3), "type": r.choice(["Regular", "Featured"]),
                  "interval": {"start": date(), "end": date()}})
        return a

    def closed_auction(n):
        return {"seller": "person%d" % r.randrange(people), "buyer": "person%d" % r.randrange(people),
                "itemref": "item%d" % r.randrange(items), "price": price(5, 1500), "date": date(),
                "quantity": r.randint(1, 3), "type": r.choice(["Regular", "Featured"]),
                "annotation": {"author": "person%d" % r.randrange(people), "description": description(),
                               "happiness": r.randint(1, 10)}}

    def array(f, name, records, last=False):
        f.write('"%s":[' % name)
        for k, record in enumerate(records):
            if k:
                f.write(",\n")
            f.write(json.dumps(record, separators=(",", ":"), ensure_ascii=False))
        f.write("]" if last else "],\n")

    regions = ["africa", "asia", "australia", "europe", "namerica", "samerica"]
    with open(path, "w", encoding="utf-8") as f:
        f.write('{"site":{"regions":{')
        per = items // len(regions)
        for k, region in enumerate(regions):
            first = k * per
            count = per if k < len(regions) - 1 else items - first
            array(f, region, (item(first + j) for j in range(count)), last=k == len(regions) - 1)
        f.write("},\n")
        array(f, "categories", ({"id": "category%d" % n, "name": words(1, 3), "description": description()} for n in range(categories)))
        array(f, "people", (person(n) for n in range(people)))
        array(f, "open_auctions", (open_auction(n) for n in range(opened)))
        array(f, "closed_auctions", (closed_auction(n) for n in range(closed)), last=True)
        f.write("}}\n")


def write_nested(path, towers, depth, seed):
    """Towers of div nested depth deep under one root, a span (and now and then a p) at each level
    beside the next div: `div div ... div span` with k descendant steps matches in every tower
    deeper than k."""
    r = random.Random(seed)
    with open(path, "w", encoding="utf-8") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n<root>\n')
        for t in range(towers):
            d = r.randint(depth // 2, depth)
            out = []
            for level in range(d):
                out.append('<div class="l%d"><span>%d</span>' % (level, level))
                if r.random() < 0.3:
                    out.append("<p>x</p>")
            out.append("</div>" * d)
            out.append("\n")
            f.write("".join(out))
        f.write("</root>\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("dir")
    parser.add_argument("--xml-elements", type=int, default=1_000_000)
    parser.add_argument("--json-values", type=int, default=23_300_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--shape-bytes", type=int, default=0)
    parser.add_argument("--xmark-bytes", type=int, default=0)
    parser.add_argument("--jsonmark-bytes", type=int, default=0)
    parser.add_argument("--nested-towers", type=int, default=0)
    parser.add_argument("--nested-depth", type=int, default=40)
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
    if args.xmark_bytes > 0:
        path = os.path.join(args.dir, "xmark.xml")
        write_xmark(path, args.xmark_bytes, args.seed)
        print("xmark.xml: %d bytes" % os.path.getsize(path))
    if args.jsonmark_bytes > 0:
        path = os.path.join(args.dir, "jsonmark.json")
        write_jsonmark(path, args.jsonmark_bytes, args.seed)
        print("jsonmark.json: %d bytes" % os.path.getsize(path))
    if args.nested_towers > 0:
        path = os.path.join(args.dir, "nested.xml")
        write_nested(path, args.nested_towers, args.nested_depth, args.seed)
        print("nested.xml: %d bytes" % os.path.getsize(path))


if __name__ == "__main__":
    main()
