#include "engines/scan/owasp/timing.hpp"

#include <algorithm>

#include "engines/limits.hpp"

namespace dozor::owasp {

Delay prove_delay(Scan& scan, const Point& point, const Baseline& base, const std::function<std::string(int)>& payload,
                  DelayProof& proof) {
  const int n = limits::owasp::kSleepSeconds;
  auto late_by = [&](const net::CheckOutcome& a, int seconds) {
    return a.responded && a.total_ms >= base.slowest_ms() + static_cast<std::int64_t>(seconds) * 900;
  };
  proof.first = point.request(payload(n));
  auto a1 = scan.prober.send(proof.first);
  if (!a1) return Delay::Stopped;
  if (!late_by(*a1, n)) return Delay::NotShown;
  proof.second = point.request(payload(2 * n));
  auto a2 = scan.prober.send(proof.second);
  if (!a2) return Delay::Stopped;
  if (!late_by(*a2, 2 * n)) return Delay::NotShown;
  auto a3 = scan.prober.send(point.original());
  if (!a3) return Delay::Stopped;
  if (late_by(*a3, 1)) return Delay::NotShown;  // the server is just slow now
  proof.first_answer = std::move(*a1);
  proof.second_answer = std::move(*a2);
  proof.unmodified_ms = std::max(base.slowest_ms(), a3->total_ms);
  return Delay::Proven;
}

void add_delay_evidence(audit::Finding& finding, const DelayProof& proof, const std::string& what) {
  const int n = limits::owasp::kSleepSeconds;
  auto note = [&](int s, const net::CheckOutcome& a) {
    return what + " " + std::to_string(s) + " s: answered after " + std::to_string(a.total_ms) +
           " ms; the unmodified request took at most " + std::to_string(proof.unmodified_ms) + " ms";
  };
  finding.evidence.push_back(evidence_of(proof.first, proof.first_answer,
                                         std::to_string(proof.first_answer.total_ms) + " ms",
                                         note(n, proof.first_answer)));
  finding.evidence.push_back(evidence_of(proof.second, proof.second_answer,
                                         std::to_string(proof.second_answer.total_ms) + " ms",
                                         note(2 * n, proof.second_answer)));
}

}  // namespace dozor::owasp
