// Path traversal / local file inclusion (A01:2021, CWE-22): the value replaced by a path that
// climbs out of any folder to a file every Unix (or Windows) host has; the answer must hold that
// file's well-known content, which the unmodified answer does not. Nothing else is read.
#include <re2/re2.h>

#include "engines/limits.hpp"
#include "engines/scan/owasp/checks.hpp"
#include "engines/scan/owasp/replay.hpp"

namespace dozor::owasp {

namespace {
constexpr FindingText kText{
    "owasp-path-traversal",
    "Path traversal",
    audit::Severity::High,
    "A01:2021",
    22,
    "The parameter names a file the server reads, and '../' sequences in it leave the intended folder: files outside "
    "it (configuration, keys, source code) can be read.",
    "Do not build file paths from input: map the value to an allow-list of files, or reduce it to a base name and "
    "check that the resolved path stays inside the intended folder."};

struct Probe {
  const char* path;
  const char* proof;  // RE2 pattern of the file's content
  const char* file;
};
constexpr Probe kProbes[] = {
    {"../../../../../../../../../../etc/passwd", "root:[^:\\n]*:0:0:", "/etc/passwd"},
    {"..\\..\\..\\..\\..\\..\\..\\..\\windows\\win.ini", "\\[(?:fonts|extensions)\\]", "C:\\windows\\win.ini"},
};
}  // namespace

void check_path_traversal(Scan& scan, const Point& point, const Baseline& base) {
  for (const auto& probe : kProbes) {
    const re2::RE2 proof(probe.proof);
    if (re2::RE2::PartialMatch(base.first.body, proof)) continue;
    auto request = point.request(probe.path);
    auto answer = scan.prober.send(request);
    if (!answer) return;
    re2::StringPiece input(answer->body), m;
    if (!proof.Match(input, 0, input.size(), RE2::UNANCHORED, &m, 1)) continue;
    auto f = make_finding(kText, "certain", where_of(point));
    auto at = static_cast<std::size_t>(m.data() - answer->body.data());
    f.evidence.push_back(evidence_of(request, *answer,
                                     excerpt_around(answer->body, at, m.size(), limits::owasp::kExcerptChars),
                                     std::string("The answer holds the content of ") + probe.file + "."));
    scan.findings.push_back(std::move(f));
    return;
  }
}

}  // namespace dozor::owasp
