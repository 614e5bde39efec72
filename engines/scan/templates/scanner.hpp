#pragma once
// Runs loaded templates against one target (docs/audit.md "Template scanner"): every request
// through one net::ScanSession (the egress policy on every connect, per-origin concurrency and
// pacing, the per-request timeout), at most limits::templates::kActiveTemplates templates in
// flight, each template's requests one after another (stop-at-first-match needs the order), an
// overall deadline and a cancellation check before every request.
#include <boost/json/object.hpp>
#include <chrono>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "engines/audit/finding.hpp"
#include "engines/net/scan_client.hpp"
#include "engines/scan/templates/template.hpp"

namespace dozor::scan::templates {

struct RunOptions {
  net::ScanOptions scan;
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
  std::set<audit::Severity> severities;  // templates of these severities; empty = all
  std::function<bool()> cancelled;       // asked before every request; true stops the scan
};

struct TemplateFinding {
  audit::Finding finding;  // check = the template's id; one evidence per matching request
  std::string template_id;
  std::string template_file;
  std::vector<std::string> extracted;
  std::string curl;  // replays the first matching request
};

struct RunResult {
  std::size_t templates_run = 0;       // templates whose requests were all answered or decided
  std::size_t templates_selected = 0;  // after the severity filter
  std::size_t requests = 0;
  std::size_t failed_requests = 0;  // no answer (unreachable, timeout …)
  bool complete = true;             // false: the deadline or a cancellation stopped it
  std::vector<TemplateFinding> findings;
  std::vector<std::string> errors;
};

RunResult run(const std::string& target, const std::vector<Template>& templates, const net::EgressPolicy& policy,
              RunOptions options);

// A shell command that replays one request: curl -i -X METHOD -H … --data-raw … 'url'.
std::string curl_command(const std::string& method, const std::string& url, const std::vector<std::string>& headers,
                         const std::string& body);

boost::json::object to_json(const TemplateFinding& f);

}  // namespace dozor::scan::templates
