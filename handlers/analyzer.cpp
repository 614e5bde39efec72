#include "handlers/analyzer.hpp"

#include <boost/json/parse.hpp>
#include <ctime>

#include "engines/errors.hpp"
#include "engines/net/multi_fetch.hpp"
#include "fcgi/http_error.hpp"
#include "fcgi/multipart.hpp"
#include "handlers/versions.hpp"

namespace dozor::handlers::analyzer_api {
namespace {

namespace json = boost::json;
using http::FieldIssue;
using http::HttpError;
using http::ValidationFailed;

std::string iso_time(std::chrono::system_clock::time_point t) {
  std::time_t tt = std::chrono::system_clock::to_time_t(t);
  std::tm tm{};
  gmtime_r(&tt, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

[[noreturn]] void invalid(const std::string& type, json::array loc, const std::string& msg) {
  throw ValidationFailed({FieldIssue{type, std::move(loc), msg, std::nullopt, {}}});
}

std::shared_ptr<const analyzer::Analyzer> ready_or_503(const Service& s) {
  auto a = s.analyzer();
  if (!a) {
    HttpError e(503, "the analyzer is not ready: " + s.not_ready_reason());
    e.headers.emplace_back("Retry-After", "5");
    throw e;
  }
  return a;
}

// Decrements the in-flight count however the analysis ends.
struct InFlight {
  std::atomic<std::int64_t>& n;
  explicit InFlight(std::atomic<std::int64_t>& c) : n(c) { ++n; }
  ~InFlight() { --n; }
  InFlight(const InFlight&) = delete;
  InFlight& operator=(const InFlight&) = delete;
};

std::int64_t unix_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// The caller's hourly budget (docs/analyzer.md "Quotas"): admins, and a process without the
// shared table, are not limited. What a document cost is charged when it ends, however it ends.
class Quota {
 public:
  Quota(analyzer::QuotaBoard* board, const config::AnalyzerConfig& cfg, const Caller* caller)
      : board_(caller && !caller->admin ? board : nullptr),
        user_(caller ? caller->id : 0),
        budget_{cfg.user_documents_per_hour, cfg.user_bytes_per_hour, cfg.user_pages_per_hour,
                cfg.user_seconds_per_hour} {
    // A refusal throws, so a constructed Quota with a board was admitted.
    if (board_) refuse_if(board_->admit(user_, budget_, unix_ms()));
  }
  ~Quota() {
    if (board_) board_->charge(user_, pages_, unix_ms() - started_ms_, unix_ms());
  }
  Quota(const Quota&) = delete;
  Quota& operator=(const Quota&) = delete;

  void bytes(std::size_t n) {
    if (board_) refuse_if(board_->add_bytes(user_, static_cast<std::int64_t>(n), budget_, unix_ms()));
  }
  void pages(std::size_t n) { pages_ = static_cast<std::int64_t>(n); }

 private:
  static void refuse_if(const std::optional<analyzer::QuotaRefusal>& r) {
    if (!r) return;
    HttpError e(429, "this user's hourly budget of " + r->budget + " is spent (analyzer.user_" + r->budget +
                         "_per_hour = " + std::to_string(r->limit) + "); retry in " + std::to_string(r->retry_after) +
                         " s");
    e.headers.emplace_back("Retry-After", std::to_string(r->retry_after));
    throw e;
  }

  analyzer::QuotaBoard* board_;
  std::int64_t user_;
  analyzer::Budget budget_;
  std::int64_t pages_ = 0;
  std::int64_t started_ms_ = unix_ms();
};

struct Input {
  std::string owned;  // a fetched document
  std::string_view bytes;
  std::string content_type;
  std::string source;  // body | multipart | url
};

Input fetch_url(const Service& s, const json::value& body) {
  const auto& cfg = s.config().analyzer;
  const auto* obj = body.if_object();
  if (!obj)
    invalid("model_attributes_type", {"body"}, "Input should be a valid dictionary or object to extract fields from");
  const auto* url = obj->if_contains("url");
  if (!url) invalid("missing", {"body", "url"}, "Field required");
  if (!url->is_string()) invalid("string_type", {"body", "url"}, "Input should be a valid string");
  std::string u(url->get_string());
  if (u.rfind("http://", 0) != 0 && u.rfind("https://", 0) != 0)
    invalid("url_scheme", {"body", "url"}, "URL scheme should be 'http' or 'https'");
  if (!cfg.fetch_urls)
    invalid("value_error", {"body", "url"},
            "Value error, fetching URLs is disabled on this analyzer (analyzer.fetch_urls)");
  net::CheckRequest req;
  req.url = u;
  req.keep_body = true;
  req.max_body = static_cast<std::size_t>(cfg.max_document) + 1;
  req.timeout = std::chrono::seconds(cfg.fetch_timeout);
  req.user_agent = "Dozor-Analyzer/" DOZOR_VERSION;
  auto out = net::check_once(req, net::EgressPolicy(s.config().scanner.allow_private_targets));
  if (!out.responded) invalid("value_error", {"body", "url"}, "Value error, the URL cannot be fetched: " + out.error);
  if (out.status != 200)
    invalid("value_error", {"body", "url"}, "Value error, the URL answered HTTP " + std::to_string(out.status));
  Input in;
  in.owned = std::move(out.body);
  in.bytes = in.owned;
  in.source = "url";
  return in;
}

Input read_input(const Service& s, const http::Request& req) {
  std::string ct = req.header("content-type").value_or("");
  if (auto boundary = http::multipart_boundary(ct)) {
    auto parts = http::parse_multipart(req.body, *boundary);
    if (!parts) invalid("value_error", {"body"}, "Value error, the multipart body is malformed");
    for (const auto& p : *parts) {
      if (p.name == "file" || !p.filename.empty()) return {{}, p.data, p.content_type, "multipart"};
    }
    invalid("missing", {"body", "file"}, "Field required");
  }
  std::string low = ct;
  for (auto& c : low) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (low.rfind("application/json", 0) == 0) {
    json::error_code ec;
    auto v = json::parse(req.body, ec);
    if (ec) invalid("json_invalid", {"body"}, "JSON decode error");
    return fetch_url(s, v);
  }
  return {{}, req.body, ct, "body"};
}

}  // namespace

Service::Service(config::Config cfg, OcrFactory make_ocr)
    : cfg_(std::move(cfg)), quotas_(analyzer::QuotaBoard::process()), make_ocr_(std::move(make_ocr)) {}

void Service::load() {
  try {
    auto a = std::make_shared<const analyzer::Analyzer>(cfg_.analyzer.model);
    if (cfg_.analyzer.ocr) {
      if (!make_ocr_) throw std::runtime_error("analyzer.ocr is on but this program has no OCR engine");
      ocr_ = make_ocr_(cfg_.analyzer);
    }
    std::lock_guard lock(mu_);
    analyzer_ = std::move(a);
    reason_.clear();
  } catch (const std::exception& e) {
    std::lock_guard lock(mu_);
    reason_ = e.what();
  }
}

std::shared_ptr<const analyzer::Analyzer> Service::analyzer() const {
  std::lock_guard lock(mu_);
  return analyzer_;
}

std::string Service::not_ready_reason() const {
  std::lock_guard lock(mu_);
  return reason_;
}

http::Response health(Service& s, const http::Request&, const Caller*) {
  auto a = s.analyzer();
  auto uptime = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - s.started());
  json::object body{{"status", a ? "ok" : "not_ready"},      {"ready", a != nullptr},
                    {"uptime_seconds", uptime.count()},      {"documents_analysed", s.analysed.load()},
                    {"documents_refused", s.refused.load()}, {"in_flight", s.in_flight.load()}};
  body["ocr"] = json::object{{"enabled", s.config().analyzer.ocr}, {"languages", s.config().analyzer.ocr_languages}};
  json::object malware{{"enabled", s.config().vault.clamav},
                       {"files_scanned", s.malware_scanned.load()},
                       {"files_infected", s.malware_found.load()}};
  if (const auto* m = s.malware()) {
    malware["engine"] = "ClamAV " + m->version();
    malware["signatures"] = m->signatures();
  } else if (!s.malware_error().empty()) {
    malware["error"] = s.malware_error();
  }
  body["malware_check"] = std::move(malware);
  if (a) {
    body["model"] = json::object{{"name", a->model().name}, {"version", a->model().version}, {"self_test", "passed"}};
  } else {
    body["reason"] = s.not_ready_reason();
  }
  return http::Response::json(body, a ? 200 : 503);
}

http::Response version(Service& s, const http::Request&, const Caller*) {
  json::object body{{"name", "dozor-analyzer"}, {"version", kDiagnosticsRelease}, {"build", DOZOR_VERSION}};
  if (auto a = s.analyzer()) {
    body["model"] = json::object{{"name", a->model().name},
                                 {"version", a->model().version},
                                 {"checksum", "sha256:" + a->model().checksum},
                                 {"loaded_at", iso_time(a->loaded_at())}};
  } else {
    body["model"] = nullptr;
    body["reason"] = s.not_ready_reason();
  }
  return http::Response::json(body);
}

json::object report_json(const analyzer::Report& r, bool reveal) {
  json::array findings;
  for (const auto& f : r.findings) {
    json::object where{{"kind", f.where.kind}, {"ref", f.where.ref}};
    if (!f.where.part.empty()) where["part"] = f.where.part;
    findings.push_back(json::object{{"category", f.category},
                                    {"value", reveal ? f.value : f.masked},
                                    {"masked", !reveal && !f.special},
                                    {"location", std::move(where)},
                                    {"confidence", f.confidence},
                                    {"rule", f.rule},
                                    {"special", f.special}});
  }
  json::object counts;
  for (const auto& [cat, n] : r.counts) counts[cat] = n;
  json::array special;
  for (const auto& c : r.special) special.push_back(json::string(c));
  json::object doc{{"type", r.type}, {"segments", r.segments}, {"characters", r.characters}, {"words", r.words}};
  if (!r.charset.empty()) doc["charset"] = r.charset;
  if (r.type == "pdf" || r.type == "image") {
    doc["pages"] = r.pages;
    doc["ocr_pages"] = r.ocr_pages;
    doc["pages_without_text"] = r.pages_without_text;
  }
  return json::object{{"document", std::move(doc)},
                      {"findings", std::move(findings)},
                      {"findings_total", r.findings_total},
                      {"truncated", r.findings_total > r.findings.size()},
                      {"summary", json::object{{"risk", r.risk},
                                               {"counts", std::move(counts)},
                                               {"special_categories", std::move(special)},
                                               {"art10", !r.special.empty()}}}};
}

http::Response analyze(Service& s, const http::Request& req, const Caller* caller) {
  auto a = ready_or_503(s);
  bool reveal = false;
  if (auto r = req.query_param("reveal")) {
    if (*r == "true" || *r == "1")
      reveal = true;
    else if (*r != "false" && *r != "0")
      invalid("bool_parsing", {"query", "reveal"}, "Input should be a valid boolean, unable to interpret input");
  }
  if (reveal && (!caller || !caller->admin)) throw Forbidden("Admin privileges required");
  InFlight guard(s.in_flight);
  const auto& cfg = s.config().analyzer;
  auto started = std::chrono::steady_clock::now();
  try {
    Quota quota(s.quotas(), cfg, caller);
    Input in = read_input(s, req);
    if (in.bytes.size() > static_cast<std::size_t>(cfg.max_document))
      throw HttpError(
          413, "the document is larger than " + std::to_string(cfg.max_document) + " bytes (analyzer.max_document)");
    if (in.bytes.empty()) invalid("missing", {"body"}, "Field required");
    quota.bytes(in.bytes.size());
    analyzer::ExtractLimits limits;
    limits.max_pages = static_cast<std::size_t>(cfg.max_pages);
    limits.deadline = analyzer::Deadline::in(cfg.max_seconds);
    limits.ocr = s.ocr();
    auto report = a->analyze(in.bytes, in.content_type, limits);
    quota.pages(report.pages);
    auto body = report_json(report, reveal);
    body["document"].as_object()["bytes"] = in.bytes.size();
    body["document"].as_object()["source"] = in.source;
    body["model"] = json::object{{"name", a->model().name}, {"version", a->model().version}};
    body["elapsed_ms"] =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started).count();
    ++s.analysed;
    return http::Response::json(body);
  } catch (const analyzer::UnsupportedDocument& e) {
    ++s.refused;
    throw HttpError(415, e.what());
  } catch (const analyzer::BadDocument& e) {
    ++s.refused;
    invalid("value_error", {"body"}, std::string("Value error, ") + e.what());
  } catch (const HttpError&) {
    ++s.refused;
    throw;
  } catch (const ValidationFailed&) {
    ++s.refused;
    throw;
  }
}

http::Response malware_scan(Service& s, const http::Request& req, const Caller*) {
  const auto* m = s.malware();
  if (!m && !s.malware_error().empty()) throw Unavailable("The malware check cannot run: " + s.malware_error());
  if (!m) throw Unavailable("The malware check is off in this analyzer (vault.clamav)");
  const auto max = s.config().analyzer.max_document;
  if (req.body.size() > static_cast<std::size_t>(max))
    throw HttpError(413, "the file is larger than " + std::to_string(max) + " bytes (analyzer.max_document)");
  if (req.body.empty()) invalid("missing", {"body"}, "Field required");
  InFlight guard(s.in_flight);
  analyzer::MalwareVerdict v;
  try {
    v = m->scan(req.body);
  } catch (const std::runtime_error& e) {
    throw Unavailable(e.what());  // not a verdict: the caller refuses the file
  }
  ++s.malware_scanned;
  if (v.infected) ++s.malware_found;
  return http::Response::json(json::object{{"infected", v.infected},
                                           {"signature", v.infected ? json::value(v.signature) : json::value(nullptr)},
                                           {"bytes", req.body.size()},
                                           {"engine", "ClamAV " + m->version()},
                                           {"signatures", m->signatures()}});
}

}  // namespace dozor::handlers::analyzer_api
