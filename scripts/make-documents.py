#!/usr/bin/env python3
"""Writes the seeded documents that scripts/import-vs-peers.sh imports.

Usage: scripts/make-documents.py DIR [--xml-elements N] [--json-values N] [--seed S]

DIR/doc.xml: N elements (default 1,000,000, about 18 MB) in a random tree under one root,
  up to 24 deep, named from a small vocabulary, a quarter with an `id`, a fifth with a
  `class`, some with a `tag`, some with text (one with an entity reference), some empty.
DIR/doc.json: about N values (default 23,300,000, about 155 MB): an array of random
  values, a fifth of them objects or arrays of 1 to 8 members (short member names, up to
  12 deep), the rest numbers, short strings, booleans and nulls.
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


def write_json(path, values, seed):
    r = random.Random(seed)
    keys = ["id", "name", "v", "x", "y", "tags", "kind", "ok", "w", "h", "items", "a", "b"]
    count = 0
    out = []

    def value(depth):
        nonlocal count
        count += 1
        t = r.random()
        if depth < 12 and t < 0.18:
            n = r.randint(1, 8)
            if r.random() < 0.5:
                out.append("[")
                for i in range(n):
                    if i:
                        out.append(",")
                    value(depth + 1)
                out.append("]")
            else:
                out.append("{")
                for i in range(n):
                    if i:
                        out.append(",")
                    out.append('"%s":' % keys[r.randrange(len(keys))])
                    value(depth + 1)
                out.append("}")
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
                out.append(",\n")
            first = False
            value(0)
            if len(out) > 100000:
                f.write("".join(out))
                out.clear()
        out.append("]\n")
        f.write("".join(out))
    return count + 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("dir")
    parser.add_argument("--xml-elements", type=int, default=1_000_000)
    parser.add_argument("--json-values", type=int, default=23_300_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    if args.xml_elements > 0:
        n = write_xml(os.path.join(args.dir, "doc.xml"), args.xml_elements, args.seed)
        print("doc.xml: %d elements, %d bytes" % (n, os.path.getsize(os.path.join(args.dir, "doc.xml"))))
    if args.json_values > 0:
        n = write_json(os.path.join(args.dir, "doc.json"), args.json_values, args.seed)
        print("doc.json: %d values, %d bytes" % (n, os.path.getsize(os.path.join(args.dir, "doc.json"))))


if __name__ == "__main__":
    main()
