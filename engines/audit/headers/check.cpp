#include "engines/audit/headers/check.hpp"

#include <boost/json/array.hpp>
#include <boost/url/parse.hpp>
#include <boost/url/url.hpp>

#include "engines/crawl/charset.hpp"
#include "engines/net/exchange_json.hpp"

namespace dozor::audit::headers {
namespace {

constexpr const char* kPageAccept = "Accept: text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

bool scheme_is(const std::string& url, boost::urls::scheme s) {
  auto u = boost::urls::parse_uri(url);
  return u && u->scheme_id() == s;
}

// The same host and path under the other scheme, on that scheme's default port: a port given
// for one scheme says nothing about the other.
std::string with_scheme(const std::string& target, const char* scheme) {
  boost::urls::url u(*boost::urls::parse_uri(target));
  u.set_scheme(scheme);
  u.remove_port();
  return std::string(u.buffer());
}

struct Chain {
  net::CheckOutcome outcome;
  std::optional<Response> end;  // the last answer, when there was one
};

Response to_response(const net::CheckOutcome& o, bool verified) {
  Response r;
  r.url = o.final_url;
  r.status = o.status;
  if (!o.exchanges.empty()) r.headers = o.exchanges.back().response_headers;
  auto ct = net::first_header(r.headers, "content-type").value_or("");
  r.body = crawl::to_utf8(o.body, ct);
  r.verified = verified;
  return r;
}

void keep(std::vector<net::Exchange>* evidence, const net::CheckOutcome& o) {
  if (evidence) evidence->insert(evidence->end(), o.exchanges.begin(), o.exchanges.end());
}

// GET with certificate verification; when the certificate alone fails, again without it, so the
// headers can still be graded (the tests that need a valid certificate say so).
Chain get(net::ScanSession& session, const std::string& url, std::vector<net::Exchange>* evidence) {
  net::FetchRequest req;
  req.url = url;
  req.headers = {kPageAccept};
  req.oversize_is_error = false;  // grading needs the head and the start of the page, not all of it
  Chain c;
  c.outcome = session.fetch(req);
  keep(evidence, c.outcome);
  bool verified = true;
  if (c.outcome.kind == net::CheckError::Tls) {
    req.verify_tls = false;
    c.outcome = session.fetch(req);
    keep(evidence, c.outcome);
    verified = false;
  }
  if (c.outcome.responded && c.outcome.kind == net::CheckError::None) c.end = to_response(c.outcome, verified);
  return c;
}

std::vector<std::string> set_cookies(const net::CheckOutcome& o) {
  std::vector<std::string> out;
  for (const auto& ex : o.exchanges)
    for (const auto& v : net::header_values(ex.response_headers, "set-cookie")) out.push_back(v);
  return out;
}

}  // namespace

std::string http_start(const std::string& target) {
  return scheme_is(target, boost::urls::scheme::http) ? target : with_scheme(target, "http");
}

std::string https_start(const std::string& target) {
  return scheme_is(target, boost::urls::scheme::https) ? target : with_scheme(target, "https");
}

Retrievals retrieve(const std::string& target, net::ScanSession& session, std::vector<net::Exchange>* evidence) {
  Retrievals r;
  auto parsed = boost::urls::parse_uri(target);
  r.hostname = parsed ? std::string(parsed->encoded_host()) : std::string();

  Chain http = get(session, http_start(target), evidence);
  r.http = http.end;
  for (const auto& ex : http.outcome.exchanges) r.http_route.push_back(ex.url);
  // An http target whose chain ends on https names its https site (a test fixture on a port of
  // its own, or a site that moved); otherwise the same host on https.
  std::string https_url = https_start(target);
  if (!scheme_is(target, boost::urls::scheme::https) && http.end &&
      scheme_is(http.end->url, boost::urls::scheme::https))
    https_url = http.end->url;
  Chain https = get(session, https_url, evidence);
  r.https = https.end;

  const Chain& chosen = https.end ? https : http;
  r.auto_ = chosen.end;
  r.session_url =
      chosen.end ? (chosen.outcome.exchanges.empty() ? chosen.end->url : chosen.outcome.exchanges.front().url) : target;
  if (!r.auto_) return r;
  r.set_cookies = set_cookies(chosen.outcome);
  bool verified = r.auto_->verified;

  // robots.txt, as Observatory fetches it, for the cookies it may set.
  if (auto base = boost::urls::parse_uri(r.session_url)) {
    boost::urls::url robots(*base);
    robots.set_encoded_path("/robots.txt");
    robots.remove_query();
    net::FetchRequest req;
    req.url = std::string(robots.buffer());
    req.headers = {"Accept: text/plain,*/*;q=0.8"};
    req.verify_tls = verified;
    req.oversize_is_error = false;
    auto o = session.fetch(req);
    keep(evidence, o);
    auto more = set_cookies(o);
    r.set_cookies.insert(r.set_cookies.end(), more.begin(), more.end());
  }

  // The CORS preflight, to the graded answer's URL.
  net::FetchRequest pre;
  pre.url = r.auto_->url;
  pre.method = "OPTIONS";
  pre.headers = {"Access-Control-Request-Method: GET", std::string("Origin: ") + kCorsOrigin};
  pre.max_redirects = 0;
  pre.verify_tls = verified;
  pre.oversize_is_error = false;
  auto cors = session.fetch(pre);
  keep(evidence, cors);
  r.cors_origin = kCorsOrigin;
  if (cors.responded && cors.kind == net::CheckError::None) r.cors = to_response(cors, verified);
  auto more = set_cookies(cors);
  r.set_cookies.insert(r.set_cookies.end(), more.begin(), more.end());
  return r;
}

HeadersReport check_headers(const std::string& target, const net::EgressPolicy& policy, net::ScanOptions options) {
  HeadersReport report;
  report.target = target;
  net::ScanSession session(policy, std::move(options));
  Retrievals r = retrieve(target, session, &report.exchanges);
  if (!r.auto_) {
    report.error = "the site cannot be reached over http or https";
    return report;
  }
  report.status_code = r.auto_->status;
  report.graded_url = r.auto_->url;
  int s = r.auto_->status;
  if (s < 200 || (s >= 400 && s != 401 && s != 403)) {
    // Observatory grades only a working page (2xx, 3xx, 401, 403).
    report.error = "the site answered with HTTP status " + std::to_string(s);
    return report;
  }
  report.grade = grade(r);
  return report;
}

boost::json::object to_json(const HeadersReport& report) {
  boost::json::object out;
  out["target"] = report.target;
  if (report.error) {
    out["score"] = nullptr;
    out["grade"] = nullptr;
    out["tests"] = boost::json::object{};
    out["error"] = *report.error;
  } else {
    out["score"] = report.grade.score;
    out["grade"] = report.grade.grade;
    boost::json::object tests;
    for (const auto& t : report.grade.tests)
      tests[t.name] = {{"pass", t.pass},
                       {"result", t.result},
                       {"score_modifier", t.score_modifier},
                       {"description", t.description},
                       {"recommendation", t.recommendation}};
    out["tests"] = std::move(tests);
    out["tests_passed"] = report.grade.tests_passed;
    out["tests_quantity"] = report.grade.tests.size();
    boost::json::array adv;
    for (const auto& a : report.grade.advisories)
      adv.push_back({{"name", a.name}, {"status", a.status}, {"value", a.value}, {"note", a.note}});
    out["advisories"] = std::move(adv);
    out["error"] = nullptr;
  }
  out["algorithm_version"] = 4;
  out["status_code"] = report.status_code;
  out["graded_url"] = report.graded_url;
  boost::json::array ex;
  for (const auto& e : report.exchanges) ex.push_back(to_json(e));
  out["exchanges"] = std::move(ex);
  return out;
}

}  // namespace dozor::audit::headers
