// OS command injection (A03:2021, CWE-78), output-based then time-based, behind the shell
// separators `;`, `|` and `$(`. Output: `echo dz$((a*b))` must come back as dz and the product of
// two random numbers — only a shell computes it — twice, with different numbers. Time: `sleep N`
// with the statistics of engines/scan/owasp/timing.hpp.
#include <random>

#include "engines/limits.hpp"
#include "engines/scan/owasp/checks.hpp"
#include "engines/scan/owasp/replay.hpp"
#include "engines/scan/owasp/timing.hpp"

namespace dozor::owasp {

namespace {
constexpr const char* kDescription =
    "The parameter reaches a shell: a command appended after a separator runs on the server. An attacker can run "
    "any command as the web server's user.";
constexpr const char* kRecommendation =
    "Do not pass input to a shell: call programs with an argument vector (execve, subprocess without shell=True) "
    "and validate the value against a strict allow-list.";
constexpr FindingText kTimed{"owasp-command-injection",
                             "OS command injection (time-based)",
                             audit::Severity::Critical,
                             "A03:2021",
                             78,
                             kDescription,
                             kRecommendation};
constexpr FindingText kOutput{"owasp-command-injection",
                              "OS command injection (output-based)",
                              audit::Severity::Critical,
                              "A03:2021",
                              78,
                              kDescription,
                              kRecommendation};
constexpr const char* kSeparators[] = {";", "|", "$("};

std::string command(const std::string& value, const std::string& sep, const std::string& cmd) {
  return value + sep + cmd + (sep == "$(" ? ")" : "");
}

long random_factor() {
  static thread_local std::mt19937 rng{std::random_device{}()};
  return std::uniform_int_distribution<long>(1000, 9999)(rng);
}

enum class Outcome { Found, NotFound, Stopped };

Outcome output_based(Scan& scan, const Point& point, const Baseline& base, const std::string& sep) {
  audit::Evidence first;
  for (int round = 0; round < 2; ++round) {
    long a = random_factor(), b = random_factor();
    std::string expected = "dz" + std::to_string(a * b);
    if (base.first.body.find(expected) != std::string::npos) return Outcome::NotFound;
    auto request =
        point.request(command(point.value(), sep, "echo dz$((" + std::to_string(a) + "*" + std::to_string(b) + "))"));
    auto answer = scan.prober.send(request);
    if (!answer) return Outcome::Stopped;
    auto at = answer->body.find(expected);
    if (at == std::string::npos) return Outcome::NotFound;
    if (round == 0) {
      std::string note = "The answer holds " + expected + ": a shell expanded $((";
      note += std::to_string(a) + "*" + std::to_string(b) + ")) after the separator " + sep;
      note += "; a second pair of numbers was computed too.";
      first = evidence_of(request, *answer,
                          excerpt_around(answer->body, at, expected.size(), limits::owasp::kExcerptChars), note);
    }
  }
  auto f = make_finding(kOutput, "certain", where_of(point));
  f.evidence.push_back(std::move(first));
  scan.findings.push_back(std::move(f));
  return Outcome::Found;
}

}  // namespace

void check_command_injection(Scan& scan, const Point& point, const Baseline& base) {
  for (const std::string sep : kSeparators) switch (output_based(scan, point, base, sep)) {
      case Outcome::Found:
      case Outcome::Stopped: return;
      case Outcome::NotFound: break;
    }
  for (const std::string sep : kSeparators) {
    DelayProof proof;
    auto delay = prove_delay(
        scan, point, base, [&](int s) { return command(point.value(), sep, "sleep " + std::to_string(s)); }, proof);
    if (delay == Delay::Stopped) return;
    if (delay == Delay::NotShown) continue;
    auto f = make_finding(kTimed, "firm", where_of(point));
    add_delay_evidence(f, proof, "sleep");
    scan.findings.push_back(std::move(f));
    return;
  }
}

}  // namespace dozor::owasp
