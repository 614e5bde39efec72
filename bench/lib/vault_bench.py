"""bench/vault's measurement against a running private stack (bench/vault starts it): the vault's
1 GiB download against nginx serving the same file statically, the 1 GiB upload's effect on the
dozor-fcgi workers' RSS, and browse latency of a 10,000-entry folder. See bench/vault.

Usage: vault_bench.py STATE_DIR [--size-mib N] [--entries N] [--rounds R]
DOZOR_TEST_BASE_URL and DOZOR_TEST_STATE name the stack (dozor_client reads them)."""

from __future__ import annotations

import argparse
import http.client
import json
import os
import ssl
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse
from pathlib import Path

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests", "integration"))
import dozor_client as dc  # noqa: E402

COOKIE = "__Host-dozor_vault"
BOUNDARY = "benchB0undary"
MIB = 1 << 20


def connect() -> http.client.HTTPSConnection:
    u = urllib.parse.urlsplit(dc.BASE_URL)
    return http.client.HTTPSConnection(u.hostname, u.port, context=ssl._create_unverified_context(), timeout=600)


class Vault:
    def __init__(self):
        c = connect()
        body = json.dumps({"username": dc.ADMIN_USER, "password": dc.ADMIN_PASSWORD})
        c.request("POST", "/vault/login", body, {"Content-Type": "application/json", "Origin": dc.BASE_URL})
        r = c.getresponse()
        data = r.read()
        if r.status != 200:
            sys.exit("bench: vault login failed: %d %s" % (r.status, data[:200]))
        self.cookie = next(v.split(";", 1)[0].split("=", 1)[1] for k, v in r.getheaders()
                           if k.lower() == "set-cookie" and v.startswith(COOKIE + "="))
        self.csrf = json.loads(data)["csrf"]

    def headers(self, extra: dict | None = None) -> dict:
        h = {"Cookie": "%s=%s" % (COOKIE, self.cookie), "Origin": dc.BASE_URL, "X-CSRF-Token": self.csrf}
        h.update(extra or {})
        return h

    def mkdir(self, path: str):
        c = connect()
        c.request("POST", "/vault/create_folder", json.dumps({"path": path}),
                  self.headers({"Content-Type": "application/json"}))
        r = c.getresponse()
        r.read()
        if r.status not in (200, 409):
            sys.exit("bench: create_folder %s: %d" % (path, r.status))


def proc_rss_kb(pid: int) -> int:
    try:
        for line in Path("/proc/%d/status" % pid).read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def fcgi_workers(state: Path) -> list[int]:
    master = int((state / "run" / "dozor-fcgi.pid").read_text().strip())
    out = []
    for p in Path("/proc").iterdir():
        if p.name.isdigit():
            try:
                if int((p / "stat").read_text().rsplit(")", 1)[1].split()[1]) == master:
                    out.append(int(p.name))
            except (OSError, IndexError, ValueError):
                pass
    return out


def upload(v: Vault, folder: str, name: str, size: int, state: Path) -> tuple[float, int, dict]:
    """Streams a multipart upload of `size` bytes; returns (seconds, status, per-worker RSS growth in kB)."""
    block = os.urandom(MIB)
    head = ("--%s\r\nContent-Disposition: form-data; name=\"file\"; filename=\"%s\"\r\n"
            "Content-Type: application/octet-stream\r\n\r\n" % (BOUNDARY, name)).encode()
    tail = ("\r\n--%s--\r\n" % BOUNDARY).encode()
    workers = fcgi_workers(state)
    before = {p: proc_rss_kb(p) for p in workers}
    peak = dict(before)
    done = threading.Event()

    def sample():
        while not done.is_set():
            for p in workers:
                peak[p] = max(peak[p], proc_rss_kb(p))
            time.sleep(0.02)

    t = threading.Thread(target=sample)
    t.start()
    c = connect()
    query = "path=%s&overwrite=true" % urllib.parse.quote(folder, safe="")
    c.putrequest("POST", "/vault/upload?" + query)
    for k, val in v.headers({"Content-Type": "multipart/form-data; boundary=" + BOUNDARY,
                             "Content-Length": str(len(head) + size + len(tail))}).items():
        c.putheader(k, val)
    started = time.monotonic()
    c.endheaders()
    c.send(head)
    sent = 0
    while sent < size:
        chunk = block[:min(MIB, size - sent)]
        c.send(chunk)
        sent += len(chunk)
    c.send(tail)
    r = c.getresponse()
    body = r.read()
    seconds = time.monotonic() - started
    done.set()
    t.join()
    if r.status != 200:
        print("upload answered %d: %s" % (r.status, body[:300]))
    return seconds, r.status, {p: peak[p] - before[p] for p in workers}


def curl_time(url: str, cookie: str | None) -> tuple[int, int, float]:
    cmd = ["curl", "-sk", "-o", "/dev/null", "-w", "%{http_code} %{size_download} %{time_total}", url]
    if cookie:
        cmd[1:1] = ["-H", "Cookie: %s=%s" % (COOKIE, cookie)]
    code, size, total = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout.split()
    return int(code), int(size), float(total)


def latencies(path: str, headers: dict, n: int) -> list[float]:
    c = connect()
    out = []
    for i in range(n + 5):
        t0 = time.perf_counter()
        c.request("GET", path, headers=headers)
        r = c.getresponse()
        r.read()
        if r.status != 200:
            sys.exit("bench: GET %s answered %d" % (path, r.status))
        if i >= 5:  # warm-up: connection, page cache
            out.append((time.perf_counter() - t0) * 1000)
    return out


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("state")
    ap.add_argument("--size-mib", type=int, default=1024)
    ap.add_argument("--entries", type=int, default=10000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--browse-requests", type=int, default=200)
    a = ap.parse_args()
    state = Path(a.state)
    size = a.size_mib * MIB
    v = Vault()
    v.mkdir("/bench")
    met = True
    print("bench/vault against %s (Release stack in %s); 2 shared cores, load average %s at the start"
          % (dc.BASE_URL, state, "%.2f" % os.getloadavg()[0]))

    # ---- upload
    secs, status, growth = upload(v, "/bench", "big.bin", size, state)
    worst = max(growth.values()) if growth else 0
    ok = status == 200 and worst < 64 * 1024
    met &= ok
    print("\nupload of %d MiB (streamed multipart, one request): HTTP %d in %.1f s, %.0f MB/s" %
          (a.size_mib, status, secs, size / 1e6 / secs))
    print("  dozor-fcgi workers' RSS growth during it (sampled every 20 ms): %s" %
          ", ".join("pid %d +%.1f MB" % (p, g / 1024) for p, g in sorted(growth.items())))
    print("  goal: grows < 64 MB: %s" % ("met" if ok else "NOT met"))
    if status != 200:
        sys.exit(1)

    # ---- download, interleaved with the static baseline
    base = dc.BASE_URL
    vault_url = base + "/vault/download?path=" + urllib.parse.quote("/bench/big.bin", safe="")
    static_url = base + "/__bench/vault_files/bench/big.bin"
    times = {"vault": [], "static": []}
    for _ in range(a.rounds):
        for kind, url, cookie in (("static", static_url, None), ("vault", vault_url, v.cookie)):
            code, got, total = curl_time(url, cookie)
            if code != 200 or got != size:
                sys.exit("bench: %s download answered %d with %d bytes" % (kind, code, got))
            times[kind].append(total)
    vs, ss = statistics.median(times["vault"]), statistics.median(times["static"])
    ratio = ss / vs
    ok = ratio >= 0.9
    met &= ok
    print("\ndownload of %d MiB with curl over HTTPS, median of %d interleaved rounds:" % (a.size_mib, a.rounds))
    print("  nginx static (same server, same file): %.2f s, %.0f MB/s   (rounds: %s)" %
          (ss, size / 1e6 / ss, ", ".join("%.2f" % t for t in times["static"])))
    print("  vault (rights check + X-Accel-Redirect): %.2f s, %.0f MB/s   (rounds: %s)" %
          (vs, size / 1e6 / vs, ", ".join("%.2f" % t for t in times["vault"])))
    print("  ratio vault/static %.2f; goal >= 0.9: %s" % (ratio, "met" if ok else "NOT met"))

    # ---- browse
    files = Path(dc.stack_config().get("vault", {}).get("root", str(state / "vault"))) / "files"
    v.mkdir("/bench/many")
    many = files / "bench" / "many"
    for i in range(a.entries):
        (many / ("file-%05d.txt" % i)).write_bytes(b"x")
    browse = latencies("/vault/browse?path=" + urllib.parse.quote("/bench/many", safe=""),
                       {"Cookie": "%s=%s" % (COOKIE, v.cookie), "Accept": "application/json"}, a.browse_requests)
    nginx = latencies("/__bench/return200", {}, a.browse_requests)
    c = connect()
    c.request("GET", "/vault/browse?path=" + urllib.parse.quote("/bench/many", safe=""),
              headers={"Cookie": "%s=%s" % (COOKIE, v.cookie), "Accept": "application/json"})
    r = c.getresponse()
    raw = r.read()
    listed = json.loads(raw)
    n_listed = len(listed.get("entries", [])) if isinstance(listed, dict) else -1
    ok = pct(browse, 95) < 200 and n_listed == a.entries
    met &= ok
    print("\nbrowse of a folder of %d entries (JSON, %d KB; one kept-alive connection, %d requests):"
          % (a.entries, len(raw) // 1024, a.browse_requests))
    print("  vault: p50 %.1f ms, p95 %.1f ms, max %.1f ms; entries listed %d" %
          (pct(browse, 50), pct(browse, 95), max(browse), n_listed))
    print("  nginx's own return 200 on the same connection style: p50 %.2f ms, p95 %.2f ms" %
          (pct(nginx, 50), pct(nginx, 95)))
    print("  goal p95 < 200 ms: %s" % ("met" if ok else "NOT met"))
    print("\ngoals: %s" % ("all met" if met else "NOT all met"))
    sys.exit(0 if met else 1)


if __name__ == "__main__":
    main()
