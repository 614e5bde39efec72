#pragma once
// A finding of any audit or scan check, in one shape: the passive checks (technologies,
// vulnerable libraries, exposures, passive rules, TLS, compliance) and later the active scanners
// produce these, the audit store keeps them, the evidence route and the DOCX report read them.
#include <boost/json/object.hpp>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "engines/net/multi_fetch.hpp"

namespace dozor::audit {

// Ordered: a higher value is worse.
enum class Severity { Info = 0, Low, Medium, High, Critical };

std::string_view to_string(Severity s);
std::optional<Severity> severity_from(std::string_view name);  // "info" … "critical"

// A comma-separated list ("high,critical"; empty names skipped; empty text: an empty set, which the
// template scanner reads as its default, critical,high,medium,low) and the names it did not know, in order.
struct SeverityList {
  std::set<Severity> wanted;
  std::vector<std::string> unknown;
};
SeverityList severities_from(std::string_view list);
inline constexpr std::string_view kSeverityChoices = "'info', 'low', 'medium', 'high' or 'critical'";

// What makes a finding believable: the exchange that shows it, or a place and an excerpt.
struct Evidence {
  std::string url;
  std::string excerpt;  // the text that proves it (header line, HTML fragment, version string)
  std::string note;     // what to look at, for a human
  std::optional<net::Exchange> exchange;
  std::string replay = {};  // active checks: a curl command that repeats the request (empty otherwise)
};

struct Finding {
  std::string check;  // stable id of the rule: "cookie-without-secure", "exposure-git-head", "jquery-cve" …
  std::string title;
  Severity severity = Severity::Info;
  std::string confidence = "firm";  // tentative | firm | certain (ZAP's words)
  std::string owasp;                // OWASP Top 10 2021 category, "A05:2021"; empty when none fits
  int cwe = 0;                      // 0 when none fits
  std::string description;
  std::string recommendation;
  std::vector<std::string> references;  // CVE ids, URLs of advisories
  std::vector<Evidence> evidence;
};

// Excerpts (the evidence's and its exchange's body) pass secrets::redact_text.
boost::json::object to_json(const Evidence& e);
net::Exchange redacted(net::Exchange x);  // the body excerpt through secrets::redact_text
boost::json::object to_json(const Finding& f);

}  // namespace dozor::audit
