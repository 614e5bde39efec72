#pragma once
// Exposures (issue 8 §2, docs/audit.md "Exposures"): a bounded set of cheap GETs for sensitive
// files and panels at the target's origin (share/audit/exposures/exposures.json). A random path
// that cannot exist is asked first: when the site answers it with 2xx (a catch-all), only a
// content check that the catch-all page does not pass makes a finding — never the status alone.
#include <boost/json/object.hpp>
#include <chrono>
#include <map>
#include <string>
#include <vector>

#include "engines/audit/exposures/data.hpp"
#include "engines/audit/exposures/judge.hpp"
#include "engines/audit/observer.hpp"

namespace dozor::audit::exposures {

struct Result {
  std::vector<Finding> findings;  // one per check (a group of probes is one finding)
  boost::json::object part;       // the audit's "exposures": what was asked and what it proved
  std::vector<std::string> errors;
};

// Judges the answers (probe id → answer; a probe without one was not answered in time).
Result evaluate(const Data& data, const std::string& guard_url, const Answer& guard,
                const std::map<std::string, Answer>& answers);

// The probe's URL at the target's origin (scheme, host and port of `target`, the probe's path).
std::string probe_url(const std::string& target, const std::string& path);

// The requests, through one scan session (per-host concurrency and pacing as configured), until
// `deadline`; then evaluate().
Result run(const std::string& target, const Data& data, const net::EgressPolicy& policy, net::ScanOptions scan,
           std::chrono::steady_clock::time_point deadline);

// The full audit's step (after the crawl): findings and the part "exposures". Only with the scan
// permission (audit::Probing): `scope` decides every origin a probe or its redirect reaches.
Step step(const Data& data, net::OriginScope scope);

}  // namespace dozor::audit::exposures
