// Server-side template injection (A03:2021, CWE-1336): arithmetic of two random numbers in the
// syntaxes of the common template engines; the product (absent from the unmodified answer) must
// appear, and a second pair of numbers must be evaluated too.
#include <random>

#include "engines/limits.hpp"
#include "engines/scan/owasp/checks.hpp"
#include "engines/scan/owasp/replay.hpp"

namespace dozor::owasp {

namespace {
constexpr FindingText kText{
    "owasp-ssti",
    "Server-side template injection",
    audit::Severity::High,
    "A03:2021",
    1336,
    "The parameter becomes part of a template's source and its expressions are evaluated on the server: with the "
    "engine's features an attacker can usually read data or run code.",
    "Pass input to templates as data (variables), never as template source; use a sandboxed engine for "
    "user-editable templates."};

struct Syntax {
  const char* open;
  const char* close;
};
constexpr Syntax kSyntaxes[] = {{"{{", "}}"}, {"${", "}"}, {"<%=", "%>"}};

long random_factor() {
  static thread_local std::mt19937 rng{std::random_device{}()};
  return std::uniform_int_distribution<long>(100000, 999999)(rng);
}
}  // namespace

void check_ssti(Scan& scan, const Point& point, const Baseline& base) {
  for (const auto& syntax : kSyntaxes) {
    audit::Evidence first;
    bool proven = true;
    for (int round = 0; round < 2 && proven; ++round) {
      long a = random_factor(), b = random_factor();
      std::string product = std::to_string(a * b);
      std::string payload = point.value() + syntax.open + std::to_string(a) + "*" + std::to_string(b) + syntax.close;
      if (base.first.body.find(product) != std::string::npos) return;  // astronomically unlikely
      auto request = point.request(payload);
      auto answer = scan.prober.send(request);
      if (!answer) return;
      auto at = answer->body.find(product);
      if (at == std::string::npos) {
        proven = false;
        break;
      }
      if (round == 0)
        first = evidence_of(
            request, *answer, excerpt_around(answer->body, at, product.size(), limits::owasp::kExcerptChars),
            "The answer holds " + product + ", the product of " + std::to_string(a) + " and " + std::to_string(b) +
                " sent as " + syntax.open + "a*b" + syntax.close + "; a second pair of numbers was evaluated too.");
    }
    if (!proven) continue;
    auto f = make_finding(kText, "certain", where_of(point));
    f.evidence.push_back(std::move(first));
    scan.findings.push_back(std::move(f));
    return;
  }
}

}  // namespace dozor::owasp
