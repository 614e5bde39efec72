#!/usr/bin/env python3
"""clang-tidy results by content: a file whose preprocessed text, compile flags, .clang-tidy and
clang-tidy version are all unchanged since it last passed needs no second run.

  tidy_cache.py miss BUILD_DIR FILE...   prints the files to check (not known to pass)
  tidy_cache.py pass BUILD_DIR FILE...   records that these files pass

Only passes are recorded, so a finding is never hidden. Keys live in
${XDG_CACHE_HOME:-~/.cache}/dozor-lint (one empty file per key)."""
import concurrent.futures
import hashlib
import json
import os
import shlex
import subprocess
import sys

CACHE = os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "dozor-lint")


def commands(build):
    with open(os.path.join(build, "compile_commands.json")) as f:
        return {os.path.realpath(os.path.join(e["directory"], e["file"])): e for e in json.load(f)}


def preprocess_argv(entry):
    argv = entry["arguments"] if "arguments" in entry else shlex.split(entry["command"])
    out, skip = [], False
    for a in argv:
        if skip:
            skip = False
            continue
        if a == "-o":
            skip = True
            continue
        if a in ("-c",):
            continue
        out.append(a)
    return out + ["-E", "-P", "-o", "-"]


def key(entry, common):
    text = subprocess.run(preprocess_argv(entry), cwd=entry["directory"], capture_output=True, check=True).stdout
    h = hashlib.sha256(common)
    h.update(entry.get("command", " ".join(entry.get("arguments", []))).encode())
    h.update(text)
    return h.hexdigest()


def main():
    mode, build, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    cmds = commands(build)
    version = subprocess.run(["clang-tidy", "--version"], capture_output=True, check=True).stdout
    with open(".clang-tidy", "rb") as f:
        common = version + f.read()
    os.makedirs(CACHE, exist_ok=True)

    def one(path):
        entry = cmds.get(os.path.realpath(path))
        if entry is None:
            return path, None  # not in the database: always checked
        try:
            return path, key(entry, common)
        except subprocess.CalledProcessError:
            return path, None

    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        keyed = list(pool.map(one, files))
    for path, k in keyed:
        mark = os.path.join(CACHE, k) if k else None
        if mode == "miss" and not (mark and os.path.exists(mark)):
            print(path)
        elif mode == "pass" and mark:
            open(mark, "w").close()


if __name__ == "__main__":
    main()
