"""bench/scan's comparison: start the vulnerable fixture and its fixed twin, scan each with
owasp_bench and with wapiti, map both tools' findings to the planted flaw classes, print a table.
Dozor runs twice on the vulnerable app: at the product's polite default (10 requests/s per origin)
and unthrottled (UNTHROTTLED requests/s, as wapiti runs: it has no rate limit), so the wall times
compare engines at the same politeness too. Requests are counted where they land (the fixture).
Usage: scan_compare.py OWASP_BENCH AUDIT_DATA_DIR STATE_DIR"""

import json
import os
import subprocess
import sys
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests", "fixtures", "owasp"))
from vulnerable_app import VulnerableApp  # noqa: E402

# Planted flaw class → the fixture path that carries it (None: site-wide).
PLANTED = {
    "reflected XSS": ["/search", "/profile", "/feedback", "/contact"],  # GET, attribute, POST form, Referer
    "DOM-based XSS": ["/dom"],
    "SQL injection (error)": ["/item", "/legacy", "/news/1"],  # the last in a path segment
    "SQL injection (boolean/blind)": ["/products", "/track"],  # boolean, time-based
    "path traversal": ["/file"],
    "open redirect": ["/go"],
    "CRLF injection": ["/lang"],
    "template injection": ["/greet"],
    "command injection": ["/ping", "/lookup"],  # time-based, output-based
    "SSRF": ["/fetch"],
    "XXE": ["/xml"],
    "CORS reflected origin": [None],
    "TRACE enabled": [None],
    "PUT enabled": [None],
}

OURS = {
    "owasp-xss-reflected": "reflected XSS",
    "owasp-sqli-error": "SQL injection (error)",
    "owasp-sqli-boolean": "SQL injection (boolean/blind)",
    "owasp-sqli-time": "SQL injection (boolean/blind)",
    "owasp-xss-dom": "DOM-based XSS",
    "owasp-path-traversal": "path traversal",
    "owasp-open-redirect": "open redirect",
    "owasp-crlf-injection": "CRLF injection",
    "owasp-ssti": "template injection",
    "owasp-command-injection": "command injection",
    "owasp-ssrf": "SSRF",
    "owasp-xxe": "XXE",
    "owasp-cors-reflected-origin": "CORS reflected origin",
    "owasp-trace-enabled": "TRACE enabled",
    "owasp-put-enabled": "PUT enabled",
}

# wapiti's vulnerability names (report "vulnerabilities" and "anomalies") → our classes.
THEIRS = {
    "Cross Site Scripting": "reflected XSS",
    "Stored Cross Site Scripting": "reflected XSS",
    "SQL Injection": "SQL injection (error)",
    "Blind SQL Injection": "SQL injection (boolean/blind)",
    "Path Traversal": "path traversal",
    "Open Redirect": "open redirect",
    "CRLF Injection": "CRLF injection",
    "Commands execution": "command injection",
    "Command execution": "command injection",
    "Server Side Request Forgery": "SSRF",
    "XML External Entity": "XXE",
}
WAPITI_MODULES = "xss,permanentxss,sql,blindsql,exec,file,redirect,crlf,methods"


def path_of(url):
    return urllib.parse.urlsplit(url).path or "/"


def place(cls, url):
    """The planted place a finding of `cls` at `url` proves, or None when it proves none."""
    paths = PLANTED.get(cls, [])
    if None in paths:
        return (cls, None)
    p = path_of(url)
    if p in paths:
        return (cls, p)
    # A path-segment flaw's evidence is the mutated URL (/news/1%27 for the planted /news/1).
    for planted in paths:
        last = planted.rpartition("/")[2]
        rest = p[len(planted):]
        if last.isdigit() and p.startswith(planted) and "/" not in rest and not rest[:1].isdigit():
            return (cls, planted)
    return None


UNTHROTTLED = 1000  # requests/s per origin: the per-origin concurrency (8) bounds it instead


def served(app, run):
    """run() and the number of requests the fixture answered meanwhile."""
    before = len(app.hits())
    result = run()
    return result, len(app.hits()) - before


def run_ours(bench, data, url, rate=None):
    t0 = time.monotonic()
    args = [bench, url, data] + ([str(rate)] if rate else [])
    out = subprocess.run(args, capture_output=True, text=True, timeout=900, check=True)
    seconds = time.monotonic() - t0
    result = json.loads(out.stdout.strip().splitlines()[-1])
    found = []
    for f in result["findings"]:
        cls = OURS.get(f["check"])
        found.append((cls, f["url"], f["check"]))
    return found, seconds, result["requests"]


def run_wapiti(url, state, tag):
    report = os.path.join(state, "wapiti-%s.json" % tag)
    t0 = time.monotonic()
    subprocess.run(["wapiti", "-u", url, "--scope", "folder", "-m", WAPITI_MODULES, "--flush-session",
                    "--max-scan-time", "900", "-f", "json", "-o", report, "--verify-ssl", "0"],
                   capture_output=True, text=True, timeout=1200,
                   env=dict(os.environ, HOME=state, no_proxy="*"))
    seconds = time.monotonic() - t0
    with open(report) as f:
        data = json.load(f)
    found = []
    for section in ("vulnerabilities", "anomalies"):
        for name, items in (data.get(section) or {}).items():
            for item in items:
                target = urllib.parse.urljoin(url, item.get("path", "/"))
                if name == "Htaccess Bypass":
                    continue
                cls = THEIRS.get(name)
                found.append((cls, target, name))
    # The methods module reports allowed methods as additional information.
    for name, items in (data.get("additionals") or {}).items():
        for item in items:
            info = item.get("info", "")
            if "TRACE" in info:
                found.append(("TRACE enabled", url, name))
            if "PUT" in info:
                found.append(("PUT enabled", url, name))
    return found, seconds


def score(found):
    """(planted places found, findings that prove no planted place)."""
    hits, extra = set(), []
    for cls, url, raw in found:
        p = place(cls, url) if cls else None
        if p:
            hits.add(p)
        else:
            extra.append((raw, url))
    return hits, extra


def main():
    bench, data, state = sys.argv[1:4]
    planted = {(c, p) for c, paths in PLANTED.items() for p in paths}
    rows = {}
    with VulnerableApp() as vuln, VulnerableApp(fixed=True) as fixed:
        (ours_v, ours_t, _), ours_req = served(vuln, lambda: run_ours(bench, data, vuln.url("/")))
        (fast_v, fast_t, _), fast_req = served(vuln, lambda: run_ours(bench, data, vuln.url("/"), UNTHROTTLED))
        ours_f, _, _ = run_ours(bench, data, fixed.url("/"))
        (theirs_v, theirs_t), theirs_req = served(vuln, lambda: run_wapiti(vuln.url("/"), state, "vulnerable"))
        theirs_f, _ = run_wapiti(fixed.url("/"), state, "fixed")
    ours_hits, ours_unplanted = score(ours_v)
    theirs_hits, theirs_unplanted = score(theirs_v)
    for cls, paths in PLANTED.items():
        rows[cls] = (len(paths), sum((cls, p) in ours_hits for p in paths), sum((cls, p) in theirs_hits for p in paths))

    print("| flaw class | planted | Dozor | wapiti |")
    print("|---|---|---|---|")
    for cls, (n, a, b) in rows.items():
        print("| %s | %d | %d | %d |" % (cls, n, a, b))
    print("| **all** | %d | %d | %d |" % (len(planted), len(ours_hits), len(theirs_hits)))
    print()
    print("| | Dozor | wapiti |")
    print("|---|---|---|")
    print("| findings on the fixed twin (false positives) | %d | %d |" % (len(ours_f), len(theirs_f)))
    print("| findings on the vulnerable app proving no planted flaw | %d | %d |" %
          (len(ours_unplanted), len(theirs_unplanted)))
    print("| wall time, vulnerable app (s) | %.1f | %.1f |" % (ours_t, theirs_t))
    print("| requests answered by the vulnerable app | %d | %d |" % (ours_req, theirs_req))
    print("| mean rate (requests/s) | %.1f | %.1f |" % (ours_req / ours_t, theirs_req / theirs_t))
    print("| ratio wapiti / Dozor time | 1 | %.2f |" % (theirs_t / ours_t if ours_t else 0))
    fast_hits, _ = score(fast_v)
    print("\nDozor unthrottled (%d requests/s per origin): %.1f s, %d requests, %.1f requests/s, "
          "%d of %d planted flaws; ratio wapiti / Dozor time %.2f" %
          (UNTHROTTLED, fast_t, fast_req, fast_req / fast_t, len(fast_hits), len(planted),
           theirs_t / fast_t if fast_t else 0))
    missed_by_us = sorted("%s %s" % p for p in theirs_hits - ours_hits)
    if missed_by_us:
        print("\nfound by wapiti only: " + ", ".join(missed_by_us))
    for label, items in (("Dozor on the fixed twin", ours_f), ("wapiti on the fixed twin", theirs_f),
                         ("Dozor, unplanted", ours_unplanted), ("wapiti, unplanted", theirs_unplanted)):
        if items:
            print("%s: %s" % (label, "; ".join("%s %s" % (i[-1] if len(i) == 3 else i[0], i[1]) for i in items)))


if __name__ == "__main__":
    main()
