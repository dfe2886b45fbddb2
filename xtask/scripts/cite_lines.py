#!/usr/bin/env python3
"""Turn whole-file citations in spec/ into line-level ones, reading the upstream mirrors.

    python3 xtask/scripts/cite_lines.py --mirrors /work/.mirror [--check]

A source `owner/name@ref:path` of an item (option, class, rule) becomes
`owner/name@ref:path:line`, the line being the first one in the file at that ref that
names the item as that kind of file does: `params.count("key")` in npu_attrs.cc, `key=`
in a constructor signature, `self.key = OptionValue` in TF2's configs, the quoted ge.* key
in the graph engine, a heading in a Markdown page. A source cited at a development head
(hicann/tensorflow 82957b9, hicann/ge ffdcbc9) whose item the 9.0.0 tag also has is
re-cited at the tag (`tfa_v0.0.48_9.0.0`, `v9.0.0`), so that 9.0.0's facts come from 9.0.0.
Sources already at a line, and sources no line of which names the item, are left alone.
Mirrors are bare git directories laid out as `<dir>/<owner>+<name>/repo` (the `fetch`
tool's layout). `--check` changes nothing and exits 1 when a change would be made.
Prints how many sources it converted and how many line-level citations spec/ has.
"""
import argparse
import os
import re
import subprocess
import sys

HEADS = {"hicann/tensorflow": ("82957b9", "tfa_v0.0.48_9.0.0"), "hicann/ge": ("ffdcbc9", "v9.0.0")}
CODE = (".cc", ".h", ".cpp", ".py", ".pyh", ".md")
SOURCE = re.compile(r'^(\s*- )("?)([A-Za-z0-9_-]+/[A-Za-z0-9._-]+)@([^:\s"]+):([^\s":]+)("?)\s*$')
ITEM = re.compile(r"^  - (name|id): *\"?([^\"\s]+)\"?\s*$")


def git_show(mirrors, repo, rev, path, cache={}):
    key = (repo, rev, path)
    if key not in cache:
        d = os.path.join(mirrors, repo.replace("/", "+"), "repo")
        r = subprocess.run(["git", "-C", d, "show", f"{rev}:{path}"], capture_output=True)
        cache[key] = r.stdout.decode("utf-8", "replace").split("\n") if r.returncode == 0 else None
    return cache[key]


def names_of(block):
    """The names an item goes by, most telling first."""
    text = "\n".join(block)
    out = []

    def add(n):
        if n and n not in out and len(n) > 2:
            out.append(n)

    for pat in [r"session: \{ name: (\w+)", r"ge_key: (\S+)", r"estimator: \{ name: (\w+)",
                r"estimator: (\w+)", r"env: (\w+)", r"tf2: \{ path: ([\w.]+)", r"tf2: ([\w.]+)"]:
        for m in re.finditer(pat, text):
            add(m.group(1).split(".")[-1] if pat.startswith("tf2") else m.group(1))
    m = ITEM.match(block[0])
    if m:
        add(m.group(2))
    for m in re.finditer(r"class: (\S+)", text):
        add(m.group(1).split(".")[-1])
    for m in re.finditer(r"option: ([\w.]+)", text):
        add(m.group(1).split(".")[-1])
    return out


def patterns(path, name):
    """Line patterns that state `name` in a file of this kind, best first."""
    q = re.escape(name)
    if path.endswith("npu_attrs.cc"):
        return [rf'params\.count\("{q}"\)', rf'"{q}"', q]
    if path.endswith("npu_estimator.py"):
        return [rf'parameter_map\["{q}"\]', q]
    if "npu_device/configs/" in path:
        return [rf"self\.{q}\s*=", q]
    if path.endswith(".py") or path.endswith(".pyh"):
        return [rf"\b{q}=", rf"class {q}\b", rf"self\._?{q}\b", q]
    if path.endswith(".md"):
        return [rf"^#+.*\b{q}\b", rf"\b{q}\b"]
    return [rf'"{q}"', rf"\b{q}\b", q]


def find_line(lines, path, names):
    for name in names:
        for pat in patterns(path, name):
            rx = re.compile(pat)
            for i, line in enumerate(lines):
                if rx.search(line):
                    return i + 1
    return None


def convert(spec_dir, mirrors, write):
    changed = 0
    total = 0
    for root, _, files in os.walk(spec_dir):
        for f in sorted(files):
            if not f.endswith(".yaml"):
                continue
            p = os.path.join(root, f)
            lines = open(p, encoding="utf-8").read().split("\n")
            starts = [i for i, l in enumerate(lines) if ITEM.match(l)] + [len(lines)]
            out = list(lines[: starts[0]])
            for a, b in zip(starts, starts[1:]):
                block = lines[a:b]
                names = names_of(block)
                seen = set()
                for line in block:
                    m = SOURCE.match(line)
                    if m and m.group(5).endswith(CODE) and names:
                        lead, q1, repo, rev, path, q2 = m.groups()
                        new = None
                        head = HEADS.get(repo)
                        revs = [rev]
                        if head and rev == head[0] and not path.endswith(".md"):
                            revs = [head[1], rev]
                        for r in revs:
                            text = git_show(mirrors, repo, r, path)
                            n = text and find_line(text, path, names)
                            if n:
                                new = f"{lead}{q1}{repo}@{r}:{path}:{n}{q2}"
                                break
                        if new:
                            changed += 1
                            line = new
                    # Two sources of one list may become the same line: keep one.
                    if not line.lstrip().startswith("- "):
                        seen = set()
                    elif SOURCE.match(line) or re.match(r"^\s*- .*:\d+\"?$", line):
                        if line.strip() in seen:
                            continue
                        seen.add(line.strip())
                    out.append(line)
            text = "\n".join(out)
            total += len(re.findall(r"^\s*- \"?[A-Za-z0-9_-]+/[A-Za-z0-9._-]+@[^:\s]+:[^\s:]+:\d+\"?\s*$", text, re.M))
            if write and text != "\n".join(lines):
                open(p, "w", encoding="utf-8").write(text)
    return changed, total


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mirrors", required=True)
    ap.add_argument("--spec", default=os.path.join(os.path.dirname(__file__), "..", "..", "spec"))
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    changed, total = convert(a.spec, a.mirrors, not a.check)
    print(f"converted {changed} whole-file citations; spec/ now has {total} line-level citations")
    if a.check and changed:
        sys.exit(1)


if __name__ == "__main__":
    main()
