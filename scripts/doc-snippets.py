"""Compiles the ```swift blocks of the DocC articles, so an article cannot rot.

Usage: python3 scripts/doc-snippets.py [Module...]    (default: every catalog)

Each article (Sources/<Module>/<Module>.docc/<Article>.md) becomes one
executable target of a throwaway package, .build/doc-snippets, that depends on
this one by path as another package would (`.package(name: "FetchedTable",
path: ...)`) and on every library product it declares. The article's blocks,
in order, are that target's main.swift: a later block may use what an earlier
one declared, as a reader reads them. The program starts with
`import Foundation` and `import <Module>`; a block imports anything else it
uses. Nothing is run: the check is that the package builds. Compiler messages
name the article's own file and line (`#sourceLocation`).

What the extractor understands in an article, besides plain ```swift blocks:

- A block whose first line is `// swift-tools-version...` is a package
  manifest: it is written into a package folder of its own (a sibling folder
  named after the path it depends on is this repository) and evaluated with
  `swift package dump-package`.
- `<!-- snippet-setup` ... `-->`: Swift code the reader does not see, placed
  before the article's first block: the objects the article's examples take
  as given (a context, a controller). At most one per article.
- `<!-- snippet: not compiled, <reason> -->` on the line before a block: the
  block is left out (keep these rare; prefer a complete example).

Exits 1, naming the article and line, when a block does not compile.
"""
import json
import os
import re
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
PACKAGE = os.path.join(ROOT, ".build", "doc-snippets")
# The scratch path of the packages that depend on this one by path: the examples build in it
# too (.ci/run), so the library is compiled once for all of them.
SCRATCH = os.environ.get("DEPENDENTS_SCRATCH_PATH", os.path.join(ROOT, ".build", "dependents"))
NOT_COMPILED = re.compile(r"^<!--\s*snippet:\s*not compiled\b.*-->\s*$")
FENCE = re.compile(r"^```(\S*)\s*$")


def library_products():
    """The library products the repository's Package.swift declares."""
    manifest = open(os.path.join(ROOT, "Package.swift")).read()
    return re.findall(r'\.library\(\s*name:\s*"([^"]+)"', manifest)


class Article:
    """One article's Swift blocks, its hidden setup, and what it left out."""

    def __init__(self, module, path):
        self.module = module
        self.path = path
        self.name = os.path.splitext(os.path.basename(path))[0]
        self.setup = None          # (first line number, lines)
        self.blocks = []           # (first line number, lines)
        self.manifests = []        # (first line number, lines)
        self.left_out = []         # line numbers of blocks marked not compiled
        self.read()

    def read(self):
        lines = open(self.path).read().split("\n")
        index = 0
        previous = ""                # the last non-blank line before a fence
        while index < len(lines):
            line = lines[index]
            if line.strip().startswith("<!-- snippet-setup"):
                index = self.read_setup(lines, index)
                continue
            fence = FENCE.match(line)
            if fence:
                index = self.read_block(lines, index, fence.group(1), previous)
                previous = ""
                continue
            if line.strip():
                previous = line.strip()
            index += 1

    def read_setup(self, lines, index):
        if self.setup is not None:
            sys.exit(f"{self.relative()}:{index + 1}: a second snippet-setup (one per article)")
        end = index + 1
        while end < len(lines) and lines[end].strip() != "-->":
            end += 1
        if end == len(lines):
            sys.exit(f"{self.relative()}:{index + 1}: snippet-setup without its closing -->")
        self.setup = (index + 2, lines[index + 1:end])
        return end + 1

    def read_block(self, lines, index, language, previous):
        end = index + 1
        while end < len(lines) and not lines[end].startswith("```"):
            end += 1
        body = lines[index + 1:end]
        first = index + 2
        if language == "swift":
            if NOT_COMPILED.match(previous):
                self.left_out.append(first - 1)
            elif body and body[0].startswith("// swift-tools-version"):
                self.manifests.append((first, body))
            else:
                self.blocks.append((first, body))
        return end + 1

    def relative(self):
        return os.path.relpath(self.path, ROOT)

    def target(self):
        return f"{self.module}_{self.name}"

    def main_swift(self, products):
        """The article's program: its imports, its setup, its blocks in order."""
        out = ["import Foundation"]
        if self.module in products:
            out.append(f"import {self.module}")
        parts = ([self.setup] if self.setup else []) + self.blocks
        for first, body in parts:
            out.append(f'#sourceLocation(file: "{self.path}", line: {first})')
            out.extend(body)
            out.append("#sourceLocation()")
        return "\n".join(out) + "\n"


def articles(modules):
    found = []
    for module in modules:
        catalog = os.path.join(ROOT, "Sources", module, f"{module}.docc")
        if not os.path.isdir(catalog):
            continue
        for entry in sorted(os.listdir(catalog)):
            if entry.endswith(".md"):
                found.append(Article(module, os.path.join(catalog, entry)))
    return found


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if os.path.exists(path) and open(path).read() == text:
        return                      # unchanged: the incremental build keeps its work
    with open(path, "w") as file:
        file.write(text)


def write_package(compiled, products):
    dependencies = ", ".join(f'.product(name: "{p}", package: "FetchedTable")' for p in products)
    targets = ",\n".join(
        f'        .executableTarget(name: "{a.target()}", dependencies: [{dependencies}])' for a in compiled)
    write(os.path.join(PACKAGE, "Package.swift"), f"""// swift-tools-version:6.0
// Generated by scripts/doc-snippets.py: one target per DocC article, its Swift blocks in order.
import PackageDescription

let package = Package(
    name: "DocSnippets",
    dependencies: [.package(name: "FetchedTable", path: "{ROOT}")],
    targets: [
{targets}
    ]
)
""")
    wanted = {a.target() for a in compiled}
    sources = os.path.join(PACKAGE, "Sources")
    os.makedirs(sources, exist_ok=True)
    for stale in set(os.listdir(sources)) - wanted:
        subprocess.run(["rm", "-rf", os.path.join(sources, stale)], check=True)
    for article in compiled:
        write(os.path.join(sources, article.target(), "main.swift"), article.main_swift(products))


def check_manifests(found):
    """Evaluates each manifest block in a package folder beside a stand-in for this repository."""
    failures = 0
    for article in found:
        for number, (first, body) in enumerate(article.manifests):
            folder = os.path.join(ROOT, ".build", "doc-manifests", f"{article.target()}_{number}", "app")
            write(os.path.join(folder, "Package.swift"), "\n".join(body) + "\n")
            for dependency in re.findall(r'path:\s*"\.\./([^"/]+)"', "\n".join(body)):
                link = os.path.join(os.path.dirname(folder), dependency)
                if not os.path.lexists(link):
                    os.symlink(ROOT, link)
            result = subprocess.run(["swift", "package", "--package-path", folder, "dump-package"],
                                    capture_output=True, text=True)
            if result.returncode != 0:
                print(result.stdout + result.stderr)
                print(f"doc-snippets: {article.relative()}:{first}: the manifest does not evaluate")
                failures += 1
    return failures


def main():
    modules = sys.argv[1:] or sorted(
        m for m in os.listdir(os.path.join(ROOT, "Sources"))
        if os.path.isdir(os.path.join(ROOT, "Sources", m, f"{m}.docc")))
    found = articles(modules)
    products = library_products()
    compiled = [a for a in found if a.blocks]
    failures = check_manifests(found)
    if compiled:
        write_package(compiled, products)
        build = subprocess.run(["swift", "build", "--package-path", PACKAGE, "--scratch-path", SCRATCH],
                               capture_output=True, text=True)
        if build.returncode != 0:
            output = build.stdout + build.stderr
            errors = sorted({l for l in output.split("\n") if ": error:" in l and l.startswith("/")})
            print("\n".join(errors) if errors else output[-4000:])
            print("doc-snippets: an article's Swift does not compile")
            failures += 1
    blocks = sum(len(a.blocks) for a in found)
    manifests = sum(len(a.manifests) for a in found)
    left_out = sum(len(a.left_out) for a in found)
    verdict = "do not all compile" if failures else "compiled"
    print(f"doc-snippets: {blocks} Swift blocks in {len(compiled)} articles {verdict}, "
          f"{manifests} manifests evaluated, {left_out} marked not compiled")
    for article in found:
        for line in article.left_out:
            print(f"  not compiled: {article.relative()}:{line}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
