#pragma once
// The security-header grade: MDN HTTP Observatory's scoring algorithm 4 (npm 1.4.8), its ten
// tests, their outcomes and modifiers, the bonus rule and the grade bands (docs/audit.md), over
// what was fetched (no I/O here: engines/audit/headers/retrieve.hpp does the fetching).
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engines/net/multi_fetch.hpp"

namespace dozor::audit::headers {

// One answer as the tests see it. Header names are lower case; a name sent several times has
// one value per field (the tests join them the way Node's HTTP client does).
struct Response {
  std::string url;  // the URL this answer came from
  int status = 0;
  std::vector<net::HeaderField> headers;
  std::string body;      // decoded text (HTML for the SRI and http-equiv tests)
  bool verified = true;  // https with a verified certificate (or plain http)
};

struct Retrievals {
  std::string hostname;
  std::string session_url;               // where the "auto" session started (its scheme counts)
  std::optional<Response> auto_;         // the https answer, or the http one when there is no https
  std::optional<Response> http;          // the end of the http:// chain
  std::optional<Response> https;         // the end of the https:// chain
  std::vector<std::string> http_route;   // every URL of the http:// chain, the first included
  std::optional<Response> cors;          // answer to an OPTIONS preflight with our Origin
  std::string cors_origin;               // the Origin that preflight sent
  std::vector<std::string> set_cookies;  // every Set-Cookie of the auto session, in order
};

struct TestResult {
  std::string name;    // Observatory's test name, e.g. "content-security-policy"
  std::string result;  // Observatory's outcome name, e.g. "csp-not-implemented"
  bool pass = false;
  int score_modifier = 0;
  std::string description;
  std::string recommendation;
};

struct Advisory {
  std::string name;    // permissions-policy | cross-origin-opener-policy | … | server-version-disclosure
  std::string status;  // ok | missing | weak | disclosed
  std::string value;   // the header as sent (bounded), empty when missing
  std::string note;
};

struct Grade {
  int score = 0;
  std::string grade;
  std::vector<TestResult> tests;  // in Observatory's order
  std::vector<Advisory> advisories;
  int tests_passed = 0;
};

inline constexpr int kExtraCreditMinimum = 90;    // bonuses count only when the penalties leave this much
inline constexpr long kHstsSixMonths = 15552000;  // seconds

// Observatory's grade for a score: floor 0, round down to a multiple of 5, 100 and more is A+.
std::string grade_for_score(int score);
// The modifier Observatory's score table gives an outcome (0 for an unknown one).
int modifier_of(const std::string& result);

// Every test over the retrievals, the score with the bonus rule, the grade and the advisories.
Grade grade(const Retrievals& r);

// The tests one at a time (for unit tests and for later checks that reuse one).
TestResult test_csp(const Retrievals& r);
TestResult test_cookies(const Retrievals& r);
TestResult test_cors(const Retrievals& r);
TestResult test_redirection(const Retrievals& r);
TestResult test_referrer_policy(const Retrievals& r);
TestResult test_hsts(const Retrievals& r);
TestResult test_sri(const Retrievals& r);
TestResult test_x_content_type_options(const Retrievals& r);
TestResult test_x_frame_options(const Retrievals& r);
TestResult test_corp(const Retrievals& r);
std::vector<Advisory> advisories(const Retrievals& r);

}  // namespace dozor::audit::headers
