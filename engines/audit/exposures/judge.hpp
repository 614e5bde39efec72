#pragma once
// Whether one probe's answer proves an exposure (docs/audit.md "Exposures"). Pure: the answers
// come from the scanner (exposures.cpp) or from a test.
#include <optional>
#include <string>
#include <string_view>

#include "engines/audit/exposures/data.hpp"
#include "engines/net/multi_fetch.hpp"

namespace dozor::audit::exposures {

// One GET's answer, as the probe needs it.
struct Answer {
  bool responded = false;
  int status = 0;
  std::string final_url;
  std::string content_type;
  std::string body;  // decoded, at most limits::kExposureBodyBytes
  bool truncated = false;
  std::optional<net::Exchange> exchange;  // the last hop
};

enum class Verdict {
  NotFound,      // nothing to report
  Found,         // a finding
  Inconclusive,  // the content check matched, but the site's answer to a random path matches as well
};

struct Judgement {
  Verdict verdict = Verdict::NotFound;
  std::string excerpt;  // what proves it (redacted when the probe says so)
  std::string reason;   // why not, or what was seen, for people
};

// `guard` is the answer to a random path that does not exist, when the site answered it with a
// 2xx (a catch-all site); null otherwise.
Judgement judge(const Probe& probe, const Answer& answer, const Answer* guard);

// The content check alone: the excerpt that proves it, or nothing. Used for the guard as well.
std::optional<std::string> content_match(const Probe& probe, const Answer& answer);

// The path of an absolute URL ("" when it does not parse).
std::string path_of(std::string_view url);

// Values masked line by line: what follows the first '=', ':' or ',' of a line is cut to three
// characters and "****", and long token-like runs (keys, hashes, base64) are cut to four.
std::string redact(std::string_view text);

// "50 4b 03 04 …": the first bytes of a binary body as hex.
std::string hex_prefix(std::string_view bytes, std::size_t n = 16);

}  // namespace dozor::audit::exposures
