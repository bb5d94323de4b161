#!/usr/bin/env python3
"""Writes the CSS selector cases of RelativeViewQueryTests: seeded random documents and
random selectors, each answered by lxml with cssselect (Debian's python3-lxml and
python3-cssselect: /usr/bin/python3), as the elements' numbers in document order among all
the elements (the root element is 0).

Usage: /usr/bin/python3 scripts/make-css-cases.py [OUTPUT.json] [SEED]
  (default Tests/RelativeViewQueryTests/Resources/css-cases.json, seed 1)

Selectors cssselect refuses (`*:first-of-type`, some pseudo-classes) are left out; empty
attribute values are not drawn (cssselect and browsers disagree on `[a^=""]`), nor `:is()`
(cssselect 1.2 loses the compound's other conditions: `div[id]:is(span, div)` becomes
`[@id or name() = 'span' or name() = 'div']`). cssselect's `:only-child` and `:only-of-type`
ask for a parent element, so the root element is never one; in browsers (Selectors Level
4) it is, as it is a first and a last child in cssselect too: they are translated here as
no element sibling before and none after.
"""
import json
import random
import sys

from cssselect import GenericTranslator, SelectorError
from lxml import etree

output = sys.argv[1] if len(sys.argv) > 1 else "Tests/RelativeViewQueryTests/Resources/css-cases.json"
rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 1)

NAMES = ["div", "p", "span", "a", "ul", "li"]
CLASSES = ["x", "y", "big", "x-y"]
VALUES = ["1", "2", "en", "en-US", "a b", "https://e.org/p", "X"]


def document(elements):
    made = [0]

    def element(depth):
        made[0] += 1
        name = rng.choice(NAMES)
        attrs = ""
        if rng.random() < 0.3:
            attrs += f' id="i{rng.randrange(20)}"'
        if rng.random() < 0.4:
            attrs += ' class="' + " ".join(rng.sample(CLASSES, rng.randint(1, 2))) + '"'
        for a in ("lang", "href", "data-v"):
            if rng.random() < 0.2:
                attrs += f' {a}="{rng.choice(VALUES)}"'
        kids = 8 if depth == 0 else (0 if depth > 5 else rng.randint(0, 4))
        inner = ""
        for _ in range(kids):
            if made[0] >= elements:
                break
            r = rng.random()
            if r < 0.15:
                inner += rng.choice(["t", " ", "text"])
            elif r < 0.2:
                inner += "<!--c-->"
            else:
                inner += element(depth + 1)
        return f"<{name}{attrs}>{inner}</{name}>"

    return element(0)


def compound(with_type=None):
    name = with_type or rng.choice(NAMES + ["*"])
    out = "" if name == "*" and rng.random() < 0.5 else name
    for _ in range(rng.choice([0, 1, 1, 2])):
        r = rng.randrange(12)
        if r == 0:
            out += f"#i{rng.randrange(20)}"
        elif r == 1:
            out += "." + rng.choice(CLASSES)
        elif r == 2:
            out += "[" + rng.choice(["lang", "href", "data-v", "id", "class"]) + "]"
        elif r == 3:
            a = rng.choice(["lang", "href", "data-v", "class"])
            op = rng.choice(["=", "~=", "|=", "^=", "$=", "*="])
            out += f'[{a}{op}"{rng.choice(VALUES + CLASSES)}"]'
        elif r == 4:
            out += rng.choice([":first-child", ":last-child", ":only-child", ":empty", ":root"])
        elif r == 5 and name != "*":
            out += rng.choice([":first-of-type", ":last-of-type", ":only-of-type"])
        elif r == 6:
            out += f":nth-child({rng.choice(['odd', 'even', '2n+1', '3n', '-n+3', '2', 'n+2', '3n-1'])})"
        elif r == 7:
            out += f":nth-last-child({rng.choice(['odd', '2', '-n+2', '2n'])})"
        elif r == 8 and name != "*":
            out += f":nth-of-type({rng.choice(['odd', '2', '2n', '-n+2'])})"
        elif r == 9:
            out += ":not(" + rng.choice([".x", "[lang]", rng.choice(NAMES), ":first-child", "#i3"]) + ")"
        elif r == 10:
            out += ":not(" + rng.choice(NAMES) + ")"
        else:
            out += f":nth-last-of-type({rng.choice(['1', 'odd'])})" if name != "*" else ".y"
    return out or "*"


def selector():
    parts = [compound()]
    for _ in range(rng.choice([0, 1, 1, 2, 3])):
        parts.append(rng.choice([" ", " > ", " + ", " ~ "]))
        parts.append(compound())
    s = "".join(parts)
    if rng.random() < 0.1:
        s += ", " + compound()
    return s


class BrowserTranslator(GenericTranslator):
    """cssselect, with the root element an only child as browsers have it."""

    def xpath_only_child_pseudo(self, xpath):
        return xpath.add_condition("count(preceding-sibling::*) = 0 and count(following-sibling::*) = 0")

    def xpath_only_of_type_pseudo(self, xpath):
        if xpath.element == "*":
            raise SelectorError("*:only-of-type is not implemented")
        e = xpath.element
        return xpath.add_condition(f"count(preceding-sibling::{e}) = 0 and count(following-sibling::{e}) = 0")


cases = []
translator = BrowserTranslator()
for d in range(12):
    text = document(120)
    root = etree.fromstring(text)
    elements = list(root.iter(tag=etree.Element))
    place = {e: i for i, e in enumerate(elements)}
    selectors = []
    while len(selectors) < 60:
        s = selector()
        try:
            xpath = translator.css_to_xpath(s)
        except SelectorError:
            continue
        found = root.getroottree().xpath(xpath)
        selectors.append({"selector": s, "elements": sorted(place[e] for e in found)})
    cases.append({"document": text, "selectors": selectors})

with open(output, "w") as f:
    json.dump({"generator": "scripts/make-css-cases.py", "oracle": "lxml + cssselect (GenericTranslator)", "cases": cases}, f, indent=0)
print(f"{sum(len(c['selectors']) for c in cases)} selectors on {len(cases)} documents written to {output}")
