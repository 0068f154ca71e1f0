#!/usr/bin/env python3
"""Validates a JUnit XML file against junit.xsd (beside this file) without lxml.

Reads the schema's subset it uses: named and inline complexTypes, sequence/choice of
elements with min/maxOccurs, attributes with use="required" and the built-in types
xs:string, xs:nonNegativeInteger and xs:decimal, simpleContent (text and attributes).
Also checks that the totals agree with the cases. Exit 0 when valid; else the
problems on stderr and exit 1. Usage: check_junit.py FILE.xml
"""
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

XS = "{http://www.w3.org/2001/XMLSchema}"
TYPES = {
    "xs:string": lambda v: True,
    "xs:nonNegativeInteger": lambda v: re.fullmatch(r"\+?[0-9]+", v) is not None,
    "xs:decimal": lambda v: re.fullmatch(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)", v) is not None,
}


def load_schema(path):
    root = ET.parse(path).getroot()
    named = {t.get("name"): t for t in root.findall(XS + "complexType")}
    tops = {e.get("name"): e for e in root.findall(XS + "element")}
    return named, tops


def type_of(decl, named):
    t = decl.get("type")
    if t is None:
        return decl.find(XS + "complexType")
    if t in TYPES:
        return t
    return named[t]


def check(elem, ctype, named, where, problems):
    if isinstance(ctype, str):  # simple type: text only, no attributes or children
        if len(elem) or elem.attrib:
            problems.append(f"{where}: <{elem.tag}> must hold text only")
        return
    simple = ctype.find(XS + "simpleContent")
    attrs_of = simple.find(XS + "extension") if simple is not None else ctype
    attrs = {a.get("name"): a for a in attrs_of.findall(XS + "attribute")}
    for name, value in elem.attrib.items():
        if name not in attrs:
            problems.append(f"{where}: attribute {name!r} not allowed on <{elem.tag}>")
        elif not TYPES[attrs[name].get("type")](value):
            problems.append(f"{where}: {name}={value!r} is not {attrs[name].get('type')}")
    for name, a in attrs.items():
        if a.get("use") == "required" and name not in elem.attrib:
            problems.append(f"{where}: <{elem.tag}> lacks required {name!r}")
    if simple is not None:
        if len(elem):
            problems.append(f"{where}: <{elem.tag}> holds elements, only text allowed")
        return
    group = ctype.find(XS + "sequence")
    if group is None:
        group = ctype.find(XS + "choice")
    allowed = {} if group is None else {e.get("name"): e for e in group.findall(XS + "element")}
    if group is None and (elem.text or "").strip():
        problems.append(f"{where}: <{elem.tag}> holds text")
    counts = {}
    for i, child in enumerate(elem):
        if child.tag not in allowed:
            problems.append(f"{where}: <{child.tag}> not allowed in <{elem.tag}>")
            continue
        counts[child.tag] = counts.get(child.tag, 0) + 1
        check(child, type_of(allowed[child.tag], named), named, f"{where}/{child.tag}[{i}]", problems)
    for name, e in allowed.items():
        hi = e.get("maxOccurs", "1")
        if group.tag == XS + "sequence" and counts.get(name, 0) < int(e.get("minOccurs", "1")):
            problems.append(f"{where}: <{elem.tag}> needs <{name}>")
        if hi != "unbounded" and group.tag == XS + "sequence" and counts.get(name, 0) > int(hi):
            problems.append(f"{where}: too many <{name}>")


def totals(root, problems):
    def count(cases, tag):
        return sum(1 for c in cases if c.find(tag) is not None)

    all_cases = []
    for s in root.findall("testsuite"):
        cases = s.findall("testcase")
        all_cases += cases
        for attr, n in (("tests", len(cases)), ("failures", count(cases, "failure")), ("skipped", count(cases, "skipped"))):
            if s.get(attr) is not None and int(s.get(attr)) != n:
                problems.append(f"testsuite {s.get('name')!r}: {attr}={s.get(attr)} but {n}")
    for attr, n in (("tests", len(all_cases)), ("failures", count(all_cases, "failure"))):
        if root.get(attr) is not None and int(root.get(attr)) != n:
            problems.append(f"testsuites: {attr}={root.get(attr)} but {n}")


def main():
    named, tops = load_schema(Path(__file__).with_name("junit.xsd"))
    try:
        root = ET.parse(sys.argv[1]).getroot()
    except ET.ParseError as e:
        print(f"not well-formed XML: {e}", file=sys.stderr)
        return 1
    problems = []
    if root.tag not in tops:
        problems.append(f"root <{root.tag}> is not a schema element")
    else:
        check(root, type_of(tops[root.tag], named), named, root.tag, problems)
        totals(root, problems)
    for p in problems:
        print(p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
