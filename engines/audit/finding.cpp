#include "engines/audit/finding.hpp"

#include <array>
#include <boost/json/array.hpp>

#include "engines/net/exchange_json.hpp"
#include "engines/secrets.hpp"

namespace dozor::audit {
namespace {

constexpr std::array<std::string_view, 5> kSeverityNames = {"info", "low", "medium", "high", "critical"};

}  // namespace

std::string_view to_string(Severity s) { return kSeverityNames.at(static_cast<std::size_t>(s)); }

std::optional<Severity> severity_from(std::string_view name) {
  for (std::size_t i = 0; i < kSeverityNames.size(); ++i)
    if (kSeverityNames[i] == name) return static_cast<Severity>(i);
  return std::nullopt;
}

SeverityList severities_from(std::string_view list) {
  SeverityList out;
  while (!list.empty()) {
    auto comma = list.find(',');
    auto one = list.substr(0, comma);
    list = comma == std::string_view::npos ? std::string_view{} : list.substr(comma + 1);
    if (one.empty()) continue;
    if (auto s = severity_from(one))
      out.wanted.insert(*s);
    else
      out.unknown.emplace_back(one);
  }
  return out;
}

net::Exchange redacted(net::Exchange x) {
  x.body_excerpt = secrets::redact_text(x.body_excerpt);
  return x;
}

boost::json::object to_json(const Evidence& e) {
  // Every excerpt a finding shows or the store keeps goes through the one redaction (issue 26 §2).
  boost::json::object o{{"url", e.url}, {"excerpt", secrets::redact_text(e.excerpt)}, {"note", e.note}};
  o["exchange"] = e.exchange ? boost::json::value(net::to_json(redacted(*e.exchange))) : boost::json::value(nullptr);
  if (!e.replay.empty()) o["replay"] = e.replay;
  return o;
}

boost::json::object to_json(const Finding& f) {
  boost::json::array refs, ev;
  for (const auto& r : f.references) refs.push_back(boost::json::string(r));
  for (const auto& e : f.evidence) ev.push_back(to_json(e));
  return {{"check", f.check},
          {"title", f.title},
          {"severity", to_string(f.severity)},
          {"confidence", f.confidence},
          {"owasp", f.owasp.empty() ? boost::json::value(nullptr) : boost::json::value(f.owasp)},
          {"cwe", f.cwe == 0 ? boost::json::value(nullptr) : boost::json::value(f.cwe)},
          {"description", f.description},
          {"recommendation", f.recommendation},
          {"references", std::move(refs)},
          {"evidence", std::move(ev)}};
}

}  // namespace dozor::audit
