#include "engines/scan/api/api_check.hpp"

#include <algorithm>
#include <array>
#include <boost/json/array.hpp>
#include <boost/json/serialize.hpp>
#include <map>
#include <set>
#include <thread>

#include "engines/crawl/html_extract.hpp"
#include "engines/scan/api/signals.hpp"
#include "engines/scan/endpoints/api_doc.hpp"
#include "engines/scan/owasp/replay.hpp"
#include "engines/scan/owasp/scan_context.hpp"

namespace dozor::api {
namespace {

namespace L = limits::api;
using Clock = std::chrono::steady_clock;
using owasp::FindingText;
using Sev = audit::Severity;

// Where GraphQL servers usually answer.
constexpr std::array<const char*, L::kGraphqlPaths> kGraphqlPaths{
    "/graphql", "/api/graphql", "/graphql/v1", "/v1/graphql", "/api/v1/graphql", "/graphiql", "/query", "/gql"};
constexpr const char* kIntrospection = R"({"query":"{__schema{queryType{name}}}"})";
// A value no endpoint expects: a quote, a double quote and brackets, percent-encoded in URLs.
constexpr const char* kMalformedValue = "dozor'\"[{";
constexpr const char* kMalformedJson = R"({"dozor": [)";

constexpr FindingText kGraphqlText{
    "api-graphql-introspection",
    "GraphQL introspection is enabled",
    Sev::Medium,
    "A05:2021",
    200,
    "The GraphQL endpoint answers the introspection query: anyone can read the whole schema — every type, query, "
    "mutation and field, internal ones included — and aim attacks at it.",
    "Turn introspection off in production (or allow it only to authenticated developers); publish the schema "
    "deliberately if clients need it."};
constexpr FindingText kMissingAuthText{
    "api-missing-auth",
    "API operation answers without credentials",
    Sev::High,
    "A01:2021",
    306,
    "The API document declares that this operation requires authentication, but it answered successfully to a request "
    "without any credentials.",
    "Enforce the declared security scheme on every operation on the server side (a default-deny middleware), and "
    "test that unauthenticated requests get 401."};
constexpr FindingText kStackTraceText{
    "api-stack-trace",
    "API answers a malformed value with a stack trace",
    Sev::Medium,
    "A05:2021",
    209,
    "A malformed parameter made the API answer with a stack trace: file paths, function names, framework versions "
    "and code structure help an attacker.",
    "Validate input and answer errors with a short generic message and status (400/422); log the details on the "
    "server only; turn debug mode off in production."};
constexpr FindingText kCorsText{
    "api-cors-credentials",
    "API allows any origin with credentials (CORS)",
    Sev::High,
    "A01:2021",
    942,
    "The API copies the request's Origin into Access-Control-Allow-Origin and allows credentials: a page on any site "
    "can call the API with the visitor's cookies and read the answers.",
    "Answer CORS requests only for an explicit allow-list of trusted origins; never reflect the Origin header with "
    "Access-Control-Allow-Credentials: true."};
constexpr FindingText kRateLimitText{
    "api-no-rate-limit-headers",
    "API answers carry no rate-limit headers",
    Sev::Low,
    "A04:2021",
    770,
    "No answer of the API carried RateLimit-*, X-RateLimit-* or Retry-After headers: either nothing limits how fast "
    "a client may call it (brute force, scraping, resource exhaustion) or clients are not told the limit.",
    "Limit the request rate per client and per credential (at the gateway or in the application) and announce the "
    "limits with RateLimit headers; answer 429 with Retry-After past them."};
constexpr FindingText kMethodText{
    "api-dangerous-method",
    "API accepts a dangerous HTTP method",
    Sev::Medium,
    "A05:2021",
    749,
    "The server accepted a method the API does not document on a path that does not exist (PUT, DELETE) or echoed "
    "the request (TRACE): resources may be written or deleted, and TRACE helps cross-site tracing.",
    "Allow only the methods each route needs; answer others with 405; disable TRACE and WebDAV methods in the web "
    "server."};
constexpr FindingText kEnumerationText{
    "api-id-enumeration",
    "API objects can be enumerated by id without credentials",
    Sev::High,
    "A01:2021",
    639,
    "Sequential ids of a resource that belongs to people answered with different objects to requests without "
    "credentials: anyone can walk the ids and download every record (IDOR/BOLA).",
    "Require authentication and check that the caller owns (or may read) each object; prefer unguessable ids "
    "(UUIDs) in URLs as a second line of defence."};
constexpr FindingText kSensitiveText{
    "api-sensitive-data",
    "API answer exposes sensitive fields",
    Sev::High,
    "A01:2021",
    200,
    "An answer of the API carries fields that hold secrets or personal identifiers (passwords, password hashes, "
    "keys, tokens, card numbers, SNILS, INN).",
    "Return only the fields a client needs (explicit response models); never send password hashes or secrets; mask "
    "card numbers and personal identifiers."};
constexpr FindingText kAlgNoneText{
    "api-jwt-alg-none",
    "API accepts JWTs with alg none",
    Sev::Critical,
    "A07:2021",
    347,
    "A token with \"alg\": \"none\" and no signature was accepted by an operation that refuses requests without "
    "credentials: anyone can forge a token for any user.",
    "Verify every token with a fixed, expected algorithm and key (never the algorithm the token names); reject "
    "alg none."};
constexpr FindingText kNoVerifyText{
    "api-jwt-signature-not-verified",
    "API does not verify JWT signatures",
    Sev::Critical,
    "A07:2021",
    347,
    "A token signed with a random key was accepted by an operation that refuses requests without credentials: the "
    "server reads tokens without checking their signature, so anyone can forge one.",
    "Verify the signature of every token with the server's key and a fixed algorithm before trusting its claims."};
constexpr FindingText kWeakSecretText{
    "api-jwt-weak-secret",
    "JWT signed with a guessable secret",
    Sev::High,
    "A02:2021",
    326,
    "A token the API hands out or documents is signed HS256 with a secret from a short public wordlist: anyone can "
    "sign tokens of their own with any claims.",
    "Sign with a random secret of at least 256 bits kept out of source code (or with an asymmetric key); rotate "
    "the secret, which invalidates every token signed with the old one."};
constexpr FindingText kNoExpText{
    "api-jwt-no-exp",
    "JWT without expiry (exp)",
    Sev::Medium,
    "A07:2021",
    613,
    "A token the API hands out or documents has no \"exp\" claim: it stays valid forever, so a leaked token is a "
    "permanent key.",
    "Give tokens a short lifetime (exp) and refresh them; keep a way to revoke them."};

struct Op {
  endpoints::ApiOperation op;
  std::string origin;
  std::string name() const { return op.method + " " + op.path; }
};

struct Exchange {
  net::FetchRequest request;
  net::CheckOutcome answer;
};

bool ok2xx(const net::CheckOutcome& a) { return a.responded && a.status >= 200 && a.status < 300; }

bool has_data(std::string_view body) {
  auto b = body.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos) return false;
  auto e = body.find_last_not_of(" \t\r\n");
  auto t = body.substr(b, e - b + 1);
  return t != "{}" && t != "[]" && t != "null" && t != "\"\"";
}

// `path` with every {template} replaced by `value` (percent-encoded).
std::string concrete(const std::string& path, const std::string& value) {
  std::string out;
  auto v = owasp::url_encode(value);
  for (std::size_t i = 0; i < path.size(); ++i) {
    if (path[i] == '{') {
      auto close = path.find('}', i);
      if (close != std::string::npos) {
        out += v;
        i = close;
        continue;
      }
    }
    out.push_back(path[i]);
  }
  return out;
}

bool names_api_document(std::string_view url) {
  std::string lower;
  for (char c : url) lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  return lower.find("openapi") != std::string::npos || lower.find("swagger") != std::string::npos ||
         lower.find("api-docs") != std::string::npos;
}

std::string excerpt(const std::string& body, std::size_t offset = 0, std::size_t length = 0) {
  return owasp::excerpt_around(body, offset, length, L::kExcerptChars);
}

class Checker {
 public:
  Checker(const std::string& target, const net::EgressPolicy& policy, const endpoints::Paths& paths,
          const JwtSecrets& secrets, Options options, Clock::time_point started)
      : paths_(paths),
        secrets_(secrets),
        options_(std::move(options)),
        prober_(policy, paced(options_), options_.request_cap, started + options_.budget, options_.cancelled) {
    result_.target = target;
    origin_ = net::origin_of(target);
  }

  Result run() {
    find_documents();
    find_graphql();
    for (const auto& op : ops_) {
      if (prober_.stopped()) break;
      check_operation(op);
      if (prober_.stopped()) break;
      result_.tested.push_back(op.name());
    }
    if (api_found()) {
      check_methods();
      check_tokens();
      if (api_answers_ > 0 && !rate_limited_ && first_unlimited_)
        add(kRateLimitText, "firm", origin_,
            owasp::evidence_of(
                first_unlimited_->request, first_unlimited_->answer,
                first_unlimited_->answer.exchanges.empty() ? "" : first_unlimited_->answer.exchanges.back().status_line,
                "None of the API's answers carried a rate-limit header."));
    }
    if (prober_.stopped()) result_.stopped = prober_.stop_reason();
    result_.requests = prober_.sent();
    result_.tokens = tokens_.size();
    std::stable_sort(result_.findings.begin(), result_.findings.end(),
                     [](const auto& a, const auto& b) { return a.severity > b.severity; });
    return std::move(result_);
  }

 private:
  static net::ScanOptions paced(const Options& o) {
    auto scan = o.scan;
    auto rate = std::max(1, o.requests_per_second);
    scan.per_host_interval = std::max(scan.per_host_interval, std::chrono::milliseconds(1000 / rate));
    scan.per_host_concurrency = 1;
    return scan;
  }

  bool api_found() const { return !result_.documents.empty() || !result_.graphql.empty(); }

  std::optional<net::CheckOutcome> send(const net::FetchRequest& r) {
    auto a = prober_.send(r);
    if (a && a->responded) harvest(r, *a);
    return a;
  }

  // JWTs in an answer's body and headers (a login's token, a Set-Cookie): kept with the exchange.
  void harvest(const net::FetchRequest& r, const net::CheckOutcome& a) {
    if (tokens_.size() >= L::kJwtsHarvested) return;
    std::string heads;
    if (!a.exchanges.empty())
      for (const auto& h : a.exchanges.back().response_headers) heads += h.name + ": " + h.value + "\n";
    for (const std::string* text : std::array<const std::string*, 2>{&a.body, &heads})
      for (auto& t : find_jwts(*text, L::kJwtsHarvested - tokens_.size()))
        if (std::none_of(tokens_.begin(), tokens_.end(), [&](const auto& x) { return x.first == t; }))
          tokens_.emplace_back(std::move(t), Exchange{r, a});
  }

  void add(const FindingText& text, const std::string& confidence, const std::string& where, audit::Evidence e) {
    if (!reported_.insert(std::string(text.check) + "\n" + where).second) return;
    auto f = owasp::make_finding(text, confidence, where);
    f.evidence.push_back(std::move(e));
    result_.findings.push_back(std::move(f));
  }

  // ------------------------------------------------------------------ discovery

  void find_documents() {
    std::vector<std::string> candidates;
    // The target's page: links that name an API document (Swagger UI, "API docs").
    auto page = send(owasp::get_request(result_.target, 2));
    if (page && ok2xx(*page)) {
      auto facts = crawl::extract_html(page->body, page->final_url.empty() ? result_.target : page->final_url);
      for (const auto& link : facts.links)
        if (candidates.size() < L::kDocumentLinks && net::origin_of(link.url) == origin_ &&
            names_api_document(link.url))
          candidates.push_back(link.url);
    }
    for (const auto& p : paths_.documents()) candidates.push_back(origin_ + p);
    std::set<std::string> asked, bodies, ops;
    for (const auto& url : candidates) {
      if (result_.documents.size() >= L::kDocuments || prober_.stopped()) break;
      if (!asked.insert(url).second) continue;
      auto req = owasp::get_request(url, 2);
      req.headers = {"Accept: application/json, application/yaml;q=0.9, */*;q=0.5"};
      auto a = send(req);
      if (!a) break;
      if (a->status != 200 || a->truncated || !bodies.insert(a->body).second) continue;
      auto doc = endpoints::parse_api_document(a->body);
      if (!doc) continue;
      result_.documents.push_back({url, doc->spec, doc->title, doc->operations.size()});
      result_.operations += doc->operations.size();
      auto origin = net::origin_of(a->final_url.empty() ? url : a->final_url);
      for (auto& op : doc->operations)
        if (ops_.size() < options_.max_operations && ops.insert(op.method + " " + origin + op.path).second)
          ops_.push_back({std::move(op), origin});
    }
  }

  void find_graphql() {
    std::vector<std::string> urls;
    urls.reserve(kGraphqlPaths.size() + ops_.size());
    for (const auto* p : kGraphqlPaths) urls.push_back(origin_ + p);
    for (const auto& op : ops_)
      if (op.op.method == "POST" && op.op.path.find("graphql") != std::string::npos &&
          op.op.path.find('{') == std::string::npos)
        urls.push_back(op.origin + op.op.path);
    std::set<std::string> asked;
    for (const auto& url : urls) {
      if (!asked.insert(url).second) continue;
      net::FetchRequest req = owasp::get_request(url);
      req.method = "POST";
      req.headers = {"Content-Type: application/json", "Accept: application/json"};
      req.body = kIntrospection;
      auto a = send(req);
      if (!a) return;
      if (!a->responded) continue;
      if (auto type = introspection_query_type(a->body)) {
        result_.graphql.push_back({url, true});
        auto at = a->body.find("__schema");
        add(kGraphqlText, "certain", url,
            owasp::evidence_of(req, *a, excerpt(a->body, at == std::string::npos ? 0 : at, 8),
                               "The introspection query was answered with the schema's query type '" + *type + "'."));
      } else if (graphql_answer(a->body)) {
        result_.graphql.push_back({url, false});
      }
    }
  }

  // ------------------------------------------------------------------ operations

  net::FetchRequest api_request(const std::string& method, const std::string& url) {
    auto req = owasp::get_request(url);
    req.method = method;
    req.headers = {"Accept: application/json"};
    return req;
  }

  // Bookkeeping every first (credential-less) answer of an operation feeds: rate-limit headers, CORS.
  void note_answer(const net::FetchRequest& req, const net::CheckOutcome& a, const std::string& cors_origin) {
    if (!a.responded || a.exchanges.empty()) return;
    ++api_answers_;
    const auto& heads = a.exchanges.back().response_headers;
    if (has_rate_limit_headers(heads))
      rate_limited_ = true;
    else if (!first_unlimited_)
      first_unlimited_ = Exchange{req, a};
    if (cors_origin.empty()) return;
    auto allow = net::first_header(heads, "access-control-allow-origin");
    auto creds = net::first_header(heads, "access-control-allow-credentials");
    if (allow && *allow == cors_origin && creds && *creds == "true")
      add(kCorsText, "certain", origin_,
          owasp::evidence_of(req, a,
                             "Access-Control-Allow-Origin: " + *allow + "\nAccess-Control-Allow-Credentials: true",
                             "The answer allows the origin sent in the request, which no site owns."));
  }

  void check_sensitive(const Op& o, const net::FetchRequest& req, const net::CheckOutcome& a) {
    auto hits = sensitive_fields(a.body, auth_operation(o.op.path));
    if (hits.empty()) return;
    std::string list;
    for (const auto& h : hits) list += (list.empty() ? "" : ", ") + h.path + " (" + h.kind + ")";
    auto first = a.body.find("\"" + hits.front().path.substr(hits.front().path.rfind('.') + 1) + "\"");
    auto e = owasp::evidence_of(req, a, excerpt(a.body, first == std::string::npos ? 0 : first, 1),
                                "Sensitive fields in the answer: " + list + ".");
    bool serious = std::any_of(hits.begin(), hits.end(), [](const auto& h) {
      return h.kind == "password" || h.kind == "password hash" || h.kind == "secret" || h.kind == "card number";
    });
    auto before = result_.findings.size();
    add(kSensitiveText, "firm", o.name(), std::move(e));
    if (result_.findings.size() > before && !serious) result_.findings.back().severity = Sev::Medium;
    sensitive_ops_.insert(o.name());
  }

  void check_trace(const Op& o, const net::FetchRequest& req, const net::CheckOutcome& a) {
    if (!a.responded) return;
    auto m = find_stack_trace(a.body);
    if (!m) return;
    add(kStackTraceText, "certain", o.name(),
        owasp::evidence_of(req, a, excerpt(a.body, m->offset, m->length),
                           "A " + m->platform + " stack trace answered the malformed value."));
  }

  void check_operation(const Op& o) {
    const auto& m = o.op.method;
    if (m == "GET")
      check_read(o);
    else if (m == "POST" || m == "PUT" || m == "PATCH" || m == "DELETE")
      check_write(o);
  }

  void check_read(const Op& o) {
    bool templated = o.op.path.find('{') != std::string::npos;
    auto req = api_request("GET", o.origin + concrete(o.op.path, "1"));
    std::string cors_origin;
    if (cors_probes_ < L::kCorsProbes) {
      ++cors_probes_;
      cors_origin = "https://" + owasp::make_canary() + ".cors.dozor.invalid";
      req.headers.push_back("Origin: " + cors_origin);
    }
    auto a = send(req);
    if (!a) return;
    note_answer(req, *a, cors_origin);
    if (o.op.secured && (a->status == 401 || a->status == 403) && !protected_) protected_ = req.url;
    if (ok2xx(*a)) {
      if (o.op.secured && has_data(a->body))
        add(kMissingAuthText, "certain", o.name(),
            owasp::evidence_of(req, *a, excerpt(a->body),
                               "The request carried no credentials; the document declares a security requirement."));
      check_sensitive(o, req, *a);
      if (templated) check_enumeration(o, req, *a);
    }
    // A malformed value where the operation expects one: in its path, else in its query parameters.
    net::FetchRequest bad;
    if (templated) {
      bad = api_request("GET", o.origin + concrete(o.op.path, kMalformedValue));
    } else {
      std::vector<std::pair<std::string, std::string>> query;
      for (const auto& p : o.op.params)
        if (p.in == "query") query.emplace_back(p.name, kMalformedValue);
      if (query.empty()) return;
      bad = api_request("GET", owasp::url_with_query(o.origin + o.op.path, query));
    }
    if (auto b = send(bad)) check_trace(o, bad, *b);
  }

  void check_enumeration(const Op& o, const net::FetchRequest& first_req, const net::CheckOutcome& first) {
    if (!(o.op.secured || personal_resource(o.op.path) || sensitive_ops_.count(o.name()))) return;
    if (!has_data(first.body)) return;
    for (int id = 2; id <= L::kEnumerationIds; ++id) {
      auto req = api_request("GET", o.origin + concrete(o.op.path, std::to_string(id)));
      auto a = send(req);
      if (!a || !ok2xx(*a) || !has_data(a->body) || a->body == first.body) return;
      if (id == L::kEnumerationIds) {
        auto f = owasp::make_finding(kEnumerationText, "firm", o.name());
        if (!reported_.insert(std::string(kEnumerationText.check) + "\n" + o.name()).second) return;
        f.evidence.push_back(owasp::evidence_of(first_req, first, excerpt(first.body), "Id 1, no credentials."));
        f.evidence.push_back(owasp::evidence_of(req, *a, excerpt(a->body),
                                                "Id " + std::to_string(id) + ", no credentials: another object."));
        result_.findings.push_back(std::move(f));
      }
    }
  }

  void check_write(const Op& o) {
    const auto& m = o.op.method;
    // Path ids of writes are a canary no object has: nothing real is changed or deleted.
    auto url = o.origin + concrete(o.op.path, "dozor-" + owasp::make_canary());
    auto req = api_request(m, url);
    if (m != "DELETE") {
      req.headers.push_back("Content-Type: application/json");
      req.body = "{}";
    }
    auto a = send(req);
    if (!a) return;
    note_answer(req, *a, "");
    if (ok2xx(*a)) {
      if (o.op.secured)
        add(kMissingAuthText, "certain", o.name(),
            owasp::evidence_of(
                req, *a,
                a->exchanges.empty() ? excerpt(a->body) : a->exchanges.back().status_line + "\n" + excerpt(a->body),
                "A write without credentials succeeded; the document declares a security requirement."));
      check_sensitive(o, req, *a);
    }
    if (m == "DELETE") return;
    auto bad = api_request(m, url);
    bad.headers.push_back("Content-Type: application/json");
    bad.body = kMalformedJson;
    if (auto b = send(bad)) check_trace(o, bad, *b);
  }

  // ------------------------------------------------------------------ site-wide

  void check_methods() {
    std::string base = origin_;
    if (!result_.documents.empty() && !ops_.empty()) {
      auto slash = ops_.front().op.path.find('/', 1);
      if (slash != std::string::npos) base = ops_.front().origin + ops_.front().op.path.substr(0, slash);
    }
    auto nowhere = base + "/dozor-" + owasp::make_canary();
    for (const char* method : {"PUT", "DELETE"}) {
      auto req = api_request(method, nowhere);
      if (std::string_view(method) == "PUT") {
        req.headers.push_back("Content-Type: text/plain");
        req.body = "dozor";
      }
      auto a = send(req);
      if (!a) return;
      if (ok2xx(*a))
        add(kMethodText, "firm", method,
            owasp::evidence_of(req, *a, a->exchanges.empty() ? "" : a->exchanges.back().status_line,
                               std::string(method) + " on a path that does not exist was accepted."));
    }
    auto trace_url = ops_.empty() ? result_.target : ops_.front().origin + concrete(ops_.front().op.path, "1");
    auto req = api_request("TRACE", trace_url);
    req.headers = {"X-Dozor-Trace: " + owasp::make_canary()};
    auto a = send(req);
    if (!a) return;
    auto marker = req.headers.front().substr(std::string_view("X-Dozor-Trace: ").size());
    auto at = a->body.find(marker);
    if (ok2xx(*a) && at != std::string::npos)
      add(kMethodText, "certain", "TRACE",
          owasp::evidence_of(req, *a, excerpt(a->body, at, marker.size()), "TRACE echoed the request's headers."));
  }

  std::string token_source(const Exchange& x) const { return x.request.method + " " + x.request.url; }

  void check_tokens() {
    std::optional<Jwt> like;
    for (const auto& [raw, x] : tokens_) {
      auto jwt = parse_jwt(raw);
      if (!jwt) continue;
      if (!like && jwt->alg != "none") like = jwt;
      auto at = x.answer.body.find(raw);
      auto proof = at == std::string::npos ? raw : excerpt(x.answer.body, at, raw.size());
      auto where = "token from " + token_source(x);
      if (!jwt->has_exp())
        add(kNoExpText, "certain", where,
            owasp::evidence_of(x.request, x.answer, proof,
                               "The token's claims have no exp: " + boost::json::serialize(jwt->payload)));
      if (auto secret = crack_hs256(*jwt, secrets_.secrets()))
        add(kWeakSecretText, "certain", where,
            owasp::evidence_of(x.request, x.answer, proof,
                               "HMAC-SHA256 of the token's header and payload with the secret '" + *secret +
                                   "' (jwt-secrets wordlist) equals its signature."));
    }
    if (!protected_ || prober_.stopped()) return;
    if (!like) {
      // No token met: the claims a typical API reads, signed with a random key.
      auto made = parse_jwt(sign_hs256({{"sub", "1"}, {"name", "dozor"}}, owasp::make_canary()));
      if (!made) return;
      like = std::move(made);
    }
    auto none = api_request("GET", *protected_);
    none.headers.push_back("Authorization: Bearer " + forge_none(*like));
    auto a = send(none);
    if (!a || !ok2xx(*a)) return;
    auto control = api_request("GET", *protected_);
    control.headers.push_back("Authorization: Bearer " + forge_bad_signature(*like));
    auto c = send(control);
    if (!c) return;
    if (ok2xx(*c)) {
      add(kNoVerifyText, "certain", *protected_,
          owasp::evidence_of(control, *c, excerpt(c->body),
                             "Without a token this operation answers 401/403; with a token signed by a random key, "
                             "status " +
                                 std::to_string(c->status) + "."));
      return;
    }
    add(kAlgNoneText, "certain", *protected_,
        owasp::evidence_of(none, *a, excerpt(a->body),
                           "Without a token this operation answers 401/403, with a wrongly signed token " +
                               std::to_string(c->status) + "; with an alg none token, " + std::to_string(a->status) +
                               "."));
  }

  const endpoints::Paths& paths_;
  const JwtSecrets& secrets_;
  Options options_;
  owasp::Prober prober_;
  Result result_;
  std::string origin_;
  std::vector<Op> ops_;
  std::vector<std::pair<std::string, Exchange>> tokens_;
  std::set<std::string> reported_;
  std::set<std::string> sensitive_ops_;
  std::size_t api_answers_ = 0;
  std::size_t cors_probes_ = 0;
  bool rate_limited_ = false;
  std::optional<Exchange> first_unlimited_;
  std::optional<std::string> protected_;  // a secured operation's URL that refused a request without credentials
};

}  // namespace

Result check(const std::string& target, const net::EgressPolicy& policy, const endpoints::Paths& paths,
             const JwtSecrets& secrets, Options options) {
  auto started = Clock::now();
  auto result = Checker(target, policy, paths, secrets, std::move(options), started).run();
  result.duration_ms = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started).count();
  return result;
}

boost::json::object to_json(const Result& r) {
  boost::json::array findings, documents, graphql, tested;
  for (const auto& f : r.findings) findings.push_back(audit::to_json(f));
  for (const auto& d : r.documents)
    documents.push_back({{"url", d.url}, {"spec", d.spec}, {"title", d.title}, {"operations", d.operations}});
  for (const auto& g : r.graphql) graphql.push_back({{"url", g.url}, {"introspection", g.introspection}});
  for (const auto& t : r.tested) tested.push_back(boost::json::value(t));
  boost::json::object by_category;
  for (const auto& f : r.findings) {
    auto& n = by_category[f.owasp.empty() ? "none" : f.owasp];
    n = n.is_int64() ? n.as_int64() + 1 : 1;
  }
  return {{"target", r.target},
          {"stopped", r.stopped},
          {"requests", r.requests},
          {"duration_ms", r.duration_ms},
          {"documents", std::move(documents)},
          {"graphql", std::move(graphql)},
          {"operations", r.operations},
          {"tested", std::move(tested)},
          {"tokens", r.tokens},
          {"by_category", std::move(by_category)},
          {"findings", std::move(findings)}};
}

}  // namespace dozor::api
