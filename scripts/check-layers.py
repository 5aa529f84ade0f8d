#!/usr/bin/env python3
"""The layering of docs/architecture.md, checked: every #include "..." of
src/ and include/ names a header of the including file's own module or of
a lower one, in the order that document's "Layer order, lowest first:"
line gives.  A public header include/cuzk/X.h belongs to the module the
table below names; include/cuzk/filecoin/*.h to filecoin.  Generated
headers (cuzk/v1/...) and system headers are not checked.

  scripts/check-layers.py [ROOT]      exit 0, or 1 naming each upward include
"""
import os
import re
import sys

# include/cuzk/X.h -> its module
PUBLIC = {
    "err": "util", "rand": "util", "pool": "util", "sha256": "util", "chacha": "util",
    "blake2b": "util", "utf8": "util", "units": "util",
    "mem": "mem", "ff": "ff", "ec": "ec", "poly": "poly", "msm": "msm", "cs": "cs",
    "cuda": "cuda", "gadgets": "gadgets", "poseidon": "gadgets", "synthetic": "circuits",
    "circom": "formats", "zkey": "formats", "checked_keys": "formats",
    "groth16": "groth16", "snarkjs": "groth16",
    "engine": "engine", "config": "daemon", "http": "daemon",
}
GENERATED = ("cuzk/v1/",)


def layer_order(root):
    text = open(os.path.join(root, "docs", "architecture.md"), encoding="utf-8").read()
    m = re.search(r"Layer order, lowest first:\s*(.*?)\.\s*\n", text, re.S)
    if not m:
        sys.exit("check-layers: docs/architecture.md has no \"Layer order, lowest first:\" line")
    return [w.strip() for w in m.group(1).replace("\n", " ").split(",")]


def module_of_public(name):
    """The module of include/cuzk/NAME (a path below include/cuzk)."""
    if name.startswith("filecoin/"):
        return "filecoin"
    return PUBLIC.get(os.path.splitext(name)[0])


def sources(root):
    for top in ("src", "include"):
        for d, _, files in os.walk(os.path.join(root, top)):
            for f in sorted(files):
                if f.endswith((".c", ".h", ".cu", ".cuh")):
                    yield os.path.relpath(os.path.join(d, f), root)


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    order = layer_order(root)
    rank = {m: i for i, m in enumerate(order)}
    bad = []
    for path in sources(root):
        parts = path.split(os.sep)
        me = parts[1] if parts[0] == "src" else module_of_public("/".join(parts[2:]))
        if me not in rank:
            bad.append("%s: its module %r is not in the layer order" % (path, me))
            continue
        for n, line in enumerate(open(os.path.join(root, path), encoding="utf-8"), 1):
            m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
            if not m or m.group(1).startswith(GENERATED):
                continue
            inc = m.group(1)
            if inc.startswith("cuzk/"):
                them = module_of_public(inc[len("cuzk/"):])
            elif "/" in inc:
                them = inc.split("/")[0]
            else:
                continue  # beside the file
            if them not in rank:
                bad.append("%s:%d: %s: no module of the layer order" % (path, n, inc))
            elif rank[them] > rank[me]:
                bad.append("%s:%d: %s: %s includes %s, a higher layer" % (path, n, inc, me, them))
    for b in bad:
        print("check-layers: " + b)
    if bad:
        return 1
    print("check-layers: every include of src/ and include/ keeps the order %s" % ", ".join(order))
    return 0


if __name__ == "__main__":
    sys.exit(main())
