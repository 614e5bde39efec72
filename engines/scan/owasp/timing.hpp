#pragma once
// The statistics of the time-based checks (OS command injection, SQL injection): a payload asking
// for an N-second delay must be answered at least 0.9·N s later than the slowest unmodified
// answer, then the same with 2N, and the unmodified request must still be fast afterwards — a slow
// or busy server does not pass all three.
#include <cstdint>
#include <functional>
#include <string>

#include "engines/scan/owasp/points.hpp"
#include "engines/scan/owasp/scan_context.hpp"

namespace dozor::owasp {

enum class Delay { NotShown, Proven, Stopped };

struct DelayProof {
  net::FetchRequest first, second;  // N and 2N seconds asked
  net::CheckOutcome first_answer, second_answer;
  std::int64_t unmodified_ms = 0;  // the slowest unmodified answer, the one after the probes included
};

// `payload(seconds)` is the whole value to send.
Delay prove_delay(Scan& scan, const Point& point, const Baseline& base, const std::function<std::string(int)>& payload,
                  DelayProof& proof);

// The two evidence items of a proven delay.
void add_delay_evidence(audit::Finding& finding, const DelayProof& proof, const std::string& what);

}  // namespace dozor::owasp
