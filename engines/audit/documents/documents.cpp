#include "engines/audit/documents/documents.hpp"

#include <algorithm>
#include <boost/json.hpp>
#include <map>
#include <set>

#include "engines/analyzer/remote.hpp"
#include "engines/limits.hpp"
#include "engines/net/scan_client.hpp"

namespace dozor::audit::documents {
namespace {

namespace json = boost::json;
using Clock = std::chrono::steady_clock;

std::string str(const json::object& o, const char* key) {
  const auto* v = o.if_contains(key);
  return v && v->is_string() ? std::string(v->as_string()) : std::string();
}

const json::object* obj(const json::object& o, const char* key) {
  const auto* v = o.if_contains(key);
  return v ? v->if_object() : nullptr;
}

const json::array* arr(const json::object& o, const char* key) {
  const auto* v = o.if_contains(key);
  return v ? v->if_array() : nullptr;
}

// The analyzer's category ids as a reader knows them.
std::string category_name(const std::string& id) {
  static const std::map<std::string, std::string> kNames{{"passport_rf", "passport of the Russian Federation"},
                                                         {"snils", "SNILS"},
                                                         {"inn", "INN"},
                                                         {"ogrn", "OGRN/OGRNIP"},
                                                         {"bank_card", "bank card number"},
                                                         {"bank_account", "bank account"},
                                                         {"oms_policy", "medical insurance policy (OMS)"},
                                                         {"birth_date", "date of birth"},
                                                         {"phone", "phone number"},
                                                         {"email", "e-mail address"},
                                                         {"car_plate", "car registration plate"},
                                                         {"full_name", "full name"},
                                                         {"address", "postal address"}};
  auto it = kNames.find(id);
  return it == kNames.end() ? id : it->second;
}

Severity severity_of(const std::string& risk) {
  if (risk == "high") return Severity::High;
  if (risk == "medium") return Severity::Medium;
  return Severity::Low;
}

std::string content_type_of(const net::CheckOutcome& o) {
  if (o.exchanges.empty()) return {};
  return net::first_header(o.exchanges.back().response_headers, "content-type").value_or("");
}

// Why a fetched document is not handed to the analyzer; empty when it is.
std::string fetch_problem(const net::CheckOutcome& o) {
  if (!o.responded) return o.error.empty() ? "no answer" : o.error;
  if (o.status != 200) return "HTTP " + std::to_string(o.status);
  if (o.body.empty()) return "empty";
  return {};
}

std::string analyzer_problem(const analyzer::remote::Answer& a) {
  std::string detail;
  if (const auto* o = a.body.if_object()) {
    if (const auto* d = o->if_contains("detail"); d && d->is_string()) detail = std::string(d->as_string());
  }
  return "the analyzer answered HTTP " + std::to_string(a.status) + (detail.empty() ? "" : ": " + detail);
}

}  // namespace

std::vector<std::string> documents_of(const crawl::CrawlResult& crawl, std::size_t max) {
  std::set<std::string> origins{net::origin_of(crawl.target)};
  for (const auto& p : crawl.pages) {
    origins.insert(net::origin_of(p.url));
    if (!p.final_url.empty()) origins.insert(net::origin_of(p.final_url));
  }
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (const auto& m : crawl.media) {
    if (out.size() >= max) break;
    if (m.kind != "document" || !origins.count(net::origin_of(m.url))) continue;
    if (seen.insert(m.url).second) out.push_back(m.url);
  }
  return out;
}

std::optional<Finding> finding_for(const std::string& url, const json::object& analysis) {
  const auto* summary = obj(analysis, "summary");
  const auto* counts = summary ? obj(*summary, "counts") : nullptr;
  if (!counts || counts->empty()) return std::nullopt;
  const std::string risk = str(*summary, "risk");
  std::vector<std::string> special;
  if (const auto* sp = arr(*summary, "special_categories"))
    for (const auto& v : *sp)
      if (v.is_string()) special.emplace_back(v.as_string());

  std::string found;
  for (const auto& [cat, n] : *counts) {
    if (std::find(special.begin(), special.end(), std::string(cat)) != special.end()) continue;
    found += (found.empty() ? "" : ", ") + category_name(std::string(cat)) + " × " + json::serialize(n);
  }
  std::string special_text;
  for (const auto& c : special) special_text += (special_text.empty() ? "" : ", ") + c;

  Finding f;
  f.check = "personal-data-in-public-document";
  f.title = "A public document carries personal data";
  f.severity = severity_of(risk);
  f.confidence = "firm";
  f.owasp = "A01:2021";
  f.cwe = 359;  // exposure of private personal information to an unauthorized actor
  f.description =
      "The site publishes " + url + ", and it contains personal data" + (found.empty() ? std::string() : ": " + found) +
      (special_text.empty() ? std::string()
                            : ". It mentions special categories of personal data (152-FZ art. 10): " + special_text) +
      ". 152-FZ (art. 7) forbids disclosing personal data without the subject's consent; anyone can "
      "download this file.";
  f.recommendation =
      "Remove the document or publish a copy with the personal data redacted, and find out who needs the "
      "original. If its publication was not lawful, 152-FZ art. 21 part 3.1 requires the operator to notify "
      "Roskomnadzor within 24 hours of learning of the incident and to report the investigation within 72 hours.";
  f.references = {"152-FZ art. 7", "152-FZ art. 10", "152-FZ art. 21 part 3.1", "CWE-359"};

  // Masked samples only: the analyzer masks identifiers unless an admin asks it not to, and
  // the audit's token is never an admin's.
  std::string samples;
  std::size_t n = 0;
  if (const auto* fs = arr(analysis, "findings")) {
    std::set<std::string> shown;
    for (const auto& v : *fs) {
      const auto* fo = v.if_object();
      if (!fo || n >= limits::kAuditDocumentSamples) continue;
      std::string line = str(*fo, "category") + ": " + str(*fo, "value");
      if (const auto* loc = obj(*fo, "location")) {
        std::string where = str(*loc, "kind");
        if (const auto* ref = loc->if_contains("ref"); ref && !ref->is_null())
          where += " " + (ref->is_string() ? std::string(ref->as_string()) : json::serialize(*ref));
        if (!where.empty()) line += " (" + where + ")";
      }
      if (!shown.insert(line).second) continue;
      samples += (samples.empty() ? "" : "\n") + line;
      ++n;
    }
  }
  Evidence e;
  e.url = url;
  e.excerpt = samples;
  const auto* doc = obj(analysis, "document");
  std::string type = doc ? str(*doc, "type") : "";
  e.note = "The document" + (type.empty() ? std::string() : " (" + type + ")") +
           " was fetched from the site and read by dozor-analyzer; risk " + (risk.empty() ? "unknown" : risk) +
           "; values are masked.";
  f.evidence.push_back(std::move(e));
  return f;
}

Reading read(const std::vector<std::string>& urls, const net::EgressPolicy& policy, net::ScanOptions scan,
             Clock::time_point deadline, const AnalyzerAccess& access) {
  Reading r;
  json::array rows;
  r.part = {{"found", urls.size()}, {"analysed", 0}, {"with_personal_data", 0}};
  if (!urls.empty() && access.base_url.empty()) {
    for (const auto& u : urls) rows.push_back(json::object{{"url", u}, {"error", "not analysed"}});
    r.part["documents"] = std::move(rows);
    r.error = access.unavailable;
    return r;
  }
  const CancelToken cancel = scan.cancel;
  scan.max_body = limits::kAuditDocumentBytes;
  net::ScanSession session(policy, std::move(scan));
  std::int64_t analysed = 0, with_data = 0;
  std::string stopped;
  for (const auto& url : urls) {
    if (stopped.empty() && (Clock::now() >= deadline || cancel.cancelled()))
      stopped = cancel.cancelled() ? "cancelled" : "time budget";
    if (!stopped.empty()) {
      rows.push_back(json::object{{"url", url}, {"error", stopped}});
      continue;
    }
    net::FetchRequest req;
    req.url = url;
    auto o = session.fetch(req);
    json::object row{{"url", url}};
    if (auto problem = fetch_problem(o); !problem.empty()) {
      row["error"] =
          o.truncated ? "larger than " + std::to_string(limits::kAuditDocumentBytes >> 20) + " MiB: not read" : problem;
      rows.push_back(std::move(row));
      continue;
    }
    row["bytes"] = o.body.size();
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    auto a = analyzer::remote::analyze(access.base_url, o.body, content_type_of(o), access.token,
                                       std::max(std::chrono::milliseconds(1000), std::min(access.timeout, left)));
    if (!a.answered) {
      // The analyzer is down: the other documents would fail the same way.
      stopped = "the analyzer did not answer: " + a.error;
      row["error"] = stopped;
      rows.push_back(std::move(row));
      continue;
    }
    const auto* analysis = a.body.if_object();
    if (a.status != 200 || !analysis) {
      row["error"] = analyzer_problem(a);
      rows.push_back(std::move(row));
      continue;
    }
    ++analysed;
    const auto* doc = obj(*analysis, "document");
    const auto* summary = obj(*analysis, "summary");
    const auto* counts = summary ? obj(*summary, "counts") : nullptr;
    const auto* special = summary ? arr(*summary, "special_categories") : nullptr;
    row["type"] = doc ? str(*doc, "type") : "";
    row["risk"] = summary ? str(*summary, "risk") : "";
    row["counts"] = counts ? json::value(*counts) : json::value(json::object{});
    row["special_categories"] = special ? json::value(*special) : json::value(json::array{});
    if (auto f = finding_for(url, *analysis)) {
      ++with_data;
      r.findings.push_back(std::move(*f));
    }
    rows.push_back(std::move(row));
  }
  r.part["analysed"] = analysed;
  r.part["with_personal_data"] = with_data;
  r.part["documents"] = std::move(rows);
  if (stopped != "cancelled") r.error = stopped;
  return r;
}

Step step(AnalyzerAccess access) {
  return {"documents", [access = std::move(access)](const StepInput& in, AuditParts& out) {
            if (!in.crawl) return;
            // Half of what is left: the compliance evaluation, exposures, TLS and geolocation follow.
            auto r = read(documents_of(*in.crawl, limits::kAuditDocuments), in.policy, in.scan, in.share_of_time(0.5),
                          access);
            for (auto& f : r.findings) out.findings.push_back(std::move(f));
            out.parts["documents"] = std::move(r.part);
            if (!r.error.empty()) throw std::runtime_error(r.error);
          }};
}

}  // namespace dozor::audit::documents
