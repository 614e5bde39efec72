#!/usr/bin/env python3
"""clang-tidy with its passes remembered by content: a file whose preprocessed text, compile
flags, .clang-tidy and clang-tidy version are all unchanged since it last passed is not checked
again, in this checkout or any other (the checkout's path is taken out of the key).

  tidy_cache.py run BUILD_DIR FILE...   checks the files not known to pass, in parallel

Each pass is recorded as soon as its file is done, so a run cut short keeps what it proved;
only passes are recorded, so a finding is never hidden. Keys live in
${XDG_CACHE_HOME:-~/.cache}/dozor-lint (one empty file per key). Findings go to stderr and,
with clang-tidy's full output, to BUILD_DIR/tidy.log; the exit status is 1 when any file fails."""
import concurrent.futures
import hashlib
import json
import os
import shlex
import subprocess
import sys

CACHE = os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "dozor-lint")
ROOT = os.path.realpath(os.getcwd()).encode()


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
    # The checkout's own path (in -I flags and __FILE__ strings) is not part of what is checked.
    h.update(entry.get("command", " ".join(entry.get("arguments", []))).encode().replace(ROOT, b"@ROOT@"))
    h.update(text.replace(ROOT, b"@ROOT@"))
    return h.hexdigest()


def main():
    mode, build, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    if mode != "run":
        sys.exit(__doc__)
    cmds = commands(build)
    version = subprocess.run(["clang-tidy", "--version"], capture_output=True, check=True).stdout
    with open(".clang-tidy", "rb") as f:
        common = version + f.read()
    os.makedirs(CACHE, exist_ok=True)
    jobs = os.cpu_count() or 2

    def keyed(path):
        entry = cmds.get(os.path.realpath(path))
        if entry is None:
            return None  # not in the database: always checked
        try:
            return key(entry, common)
        except subprocess.CalledProcessError:
            return None

    def check(path):
        k = keyed(path)
        mark = os.path.join(CACHE, k) if k else None
        if mark and os.path.exists(mark):
            return path, None, ""
        r = subprocess.run(["clang-tidy", "-quiet", "-p", build, path], capture_output=True, text=True)
        if r.returncode == 0 and mark:
            open(mark, "w").close()
        return path, r.returncode, r.stdout + r.stderr

    failed, checked = [], 0
    with open(os.path.join(build, "tidy.log"), "w") as log, concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        for path, rc, out in pool.map(check, files):
            if rc is None:
                continue
            checked += 1
            log.write(f"== {path} (exit {rc})\n{out}\n")
            log.flush()
            if rc != 0:
                failed.append(path)
                sys.stderr.write(out)
    print(f"{checked} checked, {len(files) - checked} unchanged since they passed")
    if failed:
        sys.stderr.write("clang-tidy findings in: " + " ".join(failed) + "\n")
        sys.exit(1)


if __name__ == "__main__":
    main()
