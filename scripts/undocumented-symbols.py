"""Lists the public symbols of symbol-graph files that have no documentation comment.

Usage: python3 scripts/undocumented-symbols.py GRAPH.json...
Exits 1 when there is one. Synthesized members (memberwise initializers, the
default implementations of protocol requirements) and symbols that inherit a
documented protocol requirement's comment are not counted.
"""
import json
import sys

missing = []
for path in sys.argv[1:]:
    graph = json.load(open(path))
    # Members that implement a protocol requirement (or are a protocol's default
    # implementation) show the requirement's documentation.
    inherits = {r["source"] for r in graph.get("relationships", [])
                if r.get("sourceOrigin") or r["kind"] == "defaultImplementationOf"}
    for symbol in graph.get("symbols", []):
        if symbol.get("accessLevel") not in ("public", "open"):
            continue
        precise = symbol["identifier"]["precise"]
        if "::SYNTHESIZED::" in precise or precise in inherits:
            continue
        if symbol.get("docComment", {}).get("lines"):
            continue
        location = symbol.get("location", {})
        where = location.get("uri", "?").split("/Sources/")[-1]
        line = location.get("position", {}).get("line", 0) + 1
        title = ".".join(symbol["pathComponents"])
        missing.append(f"{where}:{line}: {title} ({symbol['kind']['displayName']}) has no documentation comment")

for line in sorted(set(missing)):
    print(line)
sys.exit(1 if missing else 0)
