// Insecure HTTP methods (A05:2021): TRACE that echoes the request back (CWE-693: cross-site
// tracing reads cookies and headers that scripts must not see), and PUT that stores a file
// (CWE-650): an empty file of ours is put under a path that did not exist and read back.
#include <boost/url/parse.hpp>
#include <boost/url/url.hpp>

#include "engines/scan/owasp/checks.hpp"
#include "engines/scan/owasp/replay.hpp"

namespace dozor::owasp {

namespace {
constexpr FindingText kTrace{
    "owasp-trace-enabled",
    "HTTP TRACE echoes requests",
    audit::Severity::Low,
    "A05:2021",
    693,
    "The server answers TRACE by echoing the request, headers included: with another flaw, a script can read "
    "cookies and authorization headers it must not see (cross-site tracing).",
    "Disable TRACE (and TRACK) in the web server (nginx refuses it; Apache: TraceEnable off)."};
constexpr FindingText kPut{
    "owasp-put-enabled",
    "HTTP PUT stores files",
    audit::Severity::High,
    "A05:2021",
    650,
    "The server accepts PUT and stores what is sent under the requested path: anyone can place files (pages, "
    "scripts) on the site.",
    "Disable PUT and DELETE (WebDAV) on public servers, or require authentication and restrict them to an upload "
    "folder that is never executed."};

std::string at_path(const std::string& target, const std::string& path) {
  auto parsed = boost::urls::parse_uri(target);
  if (!parsed) return target;
  boost::urls::url u(*parsed);
  u.remove_userinfo();
  u.remove_query();
  u.remove_fragment();
  u.set_encoded_path(path);
  return std::string(u.buffer());
}
}  // namespace

void check_methods(Scan& scan, const std::string& target) {
  auto canary = make_canary();
  auto trace = get_request(at_path(target, "/"), 0);
  trace.method = "TRACE";
  trace.headers.push_back("X-Dozor-Trace: " + canary);
  auto answer = scan.prober.send(trace);
  if (!answer) return;
  if (answer->status >= 200 && answer->status < 300 && answer->body.find(canary) != std::string::npos) {
    auto f = make_finding(kTrace, "certain", at_path(target, "/"));
    f.title = kTrace.title;
    auto at = answer->body.find(canary);
    f.evidence.push_back(evidence_of(trace, *answer, excerpt_around(answer->body, at, canary.size(), 200),
                                     "The answer echoes the request header X-Dozor-Trace sent with TRACE."));
    scan.findings.push_back(std::move(f));
  }

  // PUT: the path must not exist before, answer 2xx to PUT, and exist afterwards.
  std::string url = at_path(target, "/dozor-put-" + canary + ".txt");
  auto before = scan.prober.send(get_request(url, 0));
  if (!before) return;
  if (before->status >= 200 && before->status < 400) return;  // a catch-all site proves nothing
  auto put = get_request(url, 0);
  put.method = "PUT";
  auto put_answer = scan.prober.send(put);
  if (!put_answer) return;
  if (put_answer->status < 200 || put_answer->status > 299) return;
  auto after_request = get_request(url, 0);
  auto after = scan.prober.send(after_request);
  if (!after || after->status != 200) return;
  auto f = make_finding(kPut, "certain", url);
  f.title = kPut.title;
  f.evidence.push_back(evidence_of(
      put, *put_answer, "status " + std::to_string(put_answer->status),
      "PUT of an empty file to a path that answered " + std::to_string(before->status) + " before was accepted."));
  f.evidence.push_back(
      evidence_of(after_request, *after, "status 200", "The file put there is now served (remove " + url + ")."));
  scan.findings.push_back(std::move(f));
}

}  // namespace dozor::owasp
