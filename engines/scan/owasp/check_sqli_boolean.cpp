// SQL injection, boolean-based (A03:2021, CWE-89): a condition that is always true keeps the
// page the unmodified request gets, one that is always false changes it — twice, with different
// constants, in the string and in the numeric form (engines/scan/owasp/response_diff.hpp).
#include <cstdio>

#include "engines/scan/owasp/checks.hpp"
#include "engines/scan/owasp/response_diff.hpp"

namespace dozor::owasp {

namespace {
constexpr FindingText kText{
    "owasp-sqli-boolean",
    "SQL injection (boolean-based)",
    audit::Severity::High,
    "A03:2021",
    89,
    "The parameter is part of an SQL condition: appending a condition that is always true returns the normal page, "
    "one that is always false returns a different one. An attacker can extract the database bit by bit.",
    "Use prepared statements with bound parameters for every query; never build SQL by concatenating input."};

struct Pair {
  std::string truthy, falsy;
};

}  // namespace

bool check_sqli_boolean(Scan& scan, const Point& point, const Baseline& base) {
  // A page that changes by itself cannot be diffed.
  if (base.first.status != base.second.status || similarity(base.first.body, base.second.body) < kSamePage)
    return false;
  const std::string& v = point.value();
  for (const auto& forms :
       {std::vector<Pair>{{v + "' AND '1'='1", v + "' AND '1'='2"}, {v + "' AND '7'='7", v + "' AND '7'='8"}},
        std::vector<Pair>{{v + " AND 1=1", v + " AND 1=2"}, {v + " AND 7=7", v + " AND 7=8"}}}) {
    bool proven = true;
    std::vector<audit::Evidence> evidence;
    for (const auto& pair : forms) {
      auto t_req = point.request(pair.truthy);
      auto t = scan.prober.send(t_req);
      if (!t) return false;
      auto f_req = point.request(pair.falsy);
      auto f = scan.prober.send(f_req);
      if (!f) return false;
      double t_sim = similarity(strip_echoes(t->body, pair.truthy), base.first.body);
      double f_sim = similarity(strip_echoes(f->body, pair.falsy), base.first.body);
      bool t_same = t->status == base.first.status && t_sim >= kSamePage;
      bool f_differs = f->status != base.first.status || (f_sim < kSamePage && f_sim < t_sim);
      if (!t_same || !f_differs) {
        proven = false;
        break;
      }
      char note[200];
      std::snprintf(note, sizeof note, "similarity to the unmodified answer: true condition %.3f, false condition %.3f",
                    t_sim, f_sim);
      evidence.push_back(evidence_of(
          t_req, *t, "status " + std::to_string(t->status) + ", " + std::to_string(t->body.size()) + " bytes",
          std::string("true condition; ") + note));
      evidence.push_back(evidence_of(
          f_req, *f, "status " + std::to_string(f->status) + ", " + std::to_string(f->body.size()) + " bytes",
          std::string("false condition; ") + note));
    }
    if (!proven) continue;
    auto finding = make_finding(kText, "firm", where_of(point));
    finding.evidence = std::move(evidence);
    scan.findings.push_back(std::move(finding));
    return true;
  }
  return false;
}

}  // namespace dozor::owasp
