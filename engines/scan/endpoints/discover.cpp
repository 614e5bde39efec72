#include "engines/scan/endpoints/discover.hpp"

#include <algorithm>
#include <boost/json/array.hpp>
#include <boost/url/parse.hpp>
#include <boost/url/url.hpp>
#include <thread>

#include "engines/crawl/crawler.hpp"
#include "engines/crawl/html_extract.hpp"
#include "engines/scan/endpoints/catch_all.hpp"
#include "engines/scan/owasp/replay.hpp"

namespace dozor::endpoints {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;
namespace L = limits::endpoints;

struct Split {
  std::string url;  // without query and fragment
  std::string path;
  std::vector<std::string> query;
};

std::optional<Split> split(const std::string& url) {
  auto u = boost::urls::parse_uri(url);
  if (!u) return std::nullopt;
  boost::urls::url base(*u);
  Split out;
  for (auto p : u->params())
    if (!p.key.empty()) out.query.push_back(p.key);
  base.remove_query();
  base.remove_fragment();
  out.url = std::string(base.buffer());
  out.path = std::string(base.encoded_path());
  if (out.path.empty()) out.path = "/";
  return out;
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

bool names_api_document(const std::string& path) {
  auto last = lower(path.substr(path.rfind('/') + 1));
  return last.find("openapi") != std::string::npos || last.find("swagger") != std::string::npos ||
         last.find("api-docs") != std::string::npos;
}

Answer answer_of(const std::string& path, const net::CheckOutcome& o) {
  Answer a;
  a.path = path;
  if (o.kind != net::CheckError::None && !o.responded) return a;
  a.status = o.status;
  if (!o.exchanges.empty()) {
    const auto& h = o.exchanges.back().response_headers;
    a.content_type = net::first_header(h, "content-type").value_or("");
    a.location = net::first_header(h, "location").value_or("");
  }
  a.body = o.body.substr(0, L::kCompareBytes);
  return a;
}

class Discovery {
 public:
  Discovery(const std::string& target, const net::EgressPolicy& policy, const Paths& paths, Options options)
      : policy_(policy), paths_(paths), options_(std::move(options)) {
    result_.target = target;
    result_.origin = net::origin_of(target);
    result_.timeout_s = options_.timeout.count();
    origins_.insert(result_.origin);
    auto rate = std::max(1, options_.requests_per_second);
    options_.scan.per_host_interval = std::max(options_.scan.per_host_interval, milliseconds(1000 / rate));
    options_.scan.per_host_concurrency = 1;
    options_.scan.request_timeout = std::min<milliseconds>(options_.scan.request_timeout,
                                                           std::chrono::duration_cast<milliseconds>(options_.timeout));
  }

  Result run() {
    auto started = Clock::now();
    auto total = std::chrono::duration_cast<milliseconds>(options_.timeout);
    // A little of the timeout is kept for the answer itself.
    deadline_ = started + total - std::min(milliseconds(250), total / 10);
    crawl_phase(total * L::kCrawlSharePercent / 100);
    if (!stopped()) {
      std::this_thread::sleep_for(options_.scan.per_host_interval);  // the rate across the handover
      net::ScanSession session(policy_, options_.scan);
      documents_and_catch_all(session);
      if (!session.run(deadline_)) stop();
      if (!stopped()) {
        probes_and_wordlist(session);
        if (!session.run(deadline_)) stop();
      }
      judge_wordlist();
      result_.requests += session.started();
    }
    result_.duration_ms = std::chrono::duration_cast<milliseconds>(Clock::now() - started).count();
    return std::move(result_);
  }

 private:
  bool stopped() const { return result_.stopped != "complete"; }
  void stop() {
    if (!stopped()) result_.stopped = options_.scan.cancel.cancelled() ? "cancelled" : "deadline";
  }
  bool in_scope(const std::string& url) const { return origins_.count(net::origin_of(url)) > 0; }

  Endpoint* note(const std::string& url, const std::string& method, const std::string& source) {
    auto s = split(url);
    if (!s || !in_scope(s->url)) return nullptr;
    auto it = result_.endpoints.find(s->url);
    if (it == result_.endpoints.end()) {
      if (result_.endpoints.size() >= L::kEndpoints) return nullptr;
      it = result_.endpoints.emplace(s->url, Endpoint{}).first;
      it->second.url = s->url;
    }
    auto& e = it->second;
    e.methods.insert(method);
    e.found_by.insert(source);
    for (const auto& q : s->query) add_param(e, {q, "query"});
    return &e;
  }

  static void add_param(Endpoint& e, const ApiParam& p) {
    if (e.params.size() < L::kParameters && std::find(e.params.begin(), e.params.end(), p) == e.params.end())
      e.params.push_back(p);
  }

  static void set_answer(Endpoint& e, int status, const std::string& content_type) {
    if (e.status || status <= 0) return;
    e.status = status;
    e.content_type = content_type;
  }

  void crawl_phase(milliseconds budget) {
    crawl::CrawlOptions c;
    c.depth = L::kCrawlDepth;
    c.max_pages = L::kCrawlPages;
    c.max_scripts = L::kCrawlScripts;
    c.scan = options_.scan;
    c.time_budget = budget;
    auto crawled = crawl::crawl(result_.target, policy_, c);
    result_.crawl_stopped = crawled.stopped;
    result_.requests += crawled.requests;
    if (crawled.stopped == "cancelled" || crawled.stopped == "time_budget") stop();
    // The target's own redirect (http → https, www.) says where the site lives, as for the crawl.
    for (const auto& p : crawled.pages)
      if (p.found_via == "target" && !p.final_url.empty()) origins_.insert(net::origin_of(p.final_url));
    for (const auto& p : crawled.pages) {
      auto* e = note(p.url, "GET", p.found_via);
      if (!e) continue;
      set_answer(*e, p.error.empty() ? p.status : 0, p.content_type);
    }
    for (const auto& [key, ce] : crawled.endpoints) {
      for (const auto& source : ce.sources) {
        auto* e = note(ce.url, ce.method, source);
        if (!e) break;
        for (const auto& name : ce.params) add_param(*e, {name, ce.method == "GET" ? "query" : "body"});
      }
    }
  }

  void submit(net::ScanSession& session, const std::string& url, std::optional<int> redirects,
              std::function<void(net::CheckOutcome)> done) {
    net::FetchRequest req;
    req.url = url;
    req.max_redirects = redirects;
    req.oversize_is_error = false;
    session.submit(std::move(req), std::move(done));
  }

  void documents_and_catch_all(net::ScanSession& session) {
    for (const char* shape : {"/dozor-%s", "/dozor-%s/index.php"}) {
      std::string path = shape;
      path.replace(path.find("%s"), 2, owasp::make_canary());
      submit(session, result_.origin + path, 0,
             [this, path](const net::CheckOutcome& o) { catch_all_.push_back(answer_of(path, o)); });
    }
    std::vector<std::string> candidates;
    for (const auto& p : paths_.documents()) candidates.push_back(result_.origin + p);
    for (const auto& [url, e] : result_.endpoints)
      if (auto s = split(url); s && names_api_document(s->path)) candidates.push_back(url);
    std::set<std::string> asked;
    for (const auto& url : candidates) {
      if (!asked.insert(url).second) continue;
      net::FetchRequest req;
      req.url = url;
      req.max_redirects = 2;
      req.headers = {"Accept: application/json, application/yaml;q=0.9, */*;q=0.5"};
      session.submit(std::move(req), [this, url](const net::CheckOutcome& o) { on_document(url, o); });
    }
  }

  void on_document(const std::string& url, const net::CheckOutcome& o) {
    if (o.kind != net::CheckError::None || o.status != 200 || o.truncated) return;
    if (result_.documents.size() >= L::kDocumentsRead) return;
    auto doc = parse_api_document(o.body);
    if (!doc) return;
    result_.documents.push_back({url, doc->spec, doc->title, doc->operations.size()});
    auto answer = answer_of("", o);
    if (auto* e = note(url, "GET", "openapi")) set_answer(*e, answer.status, answer.content_type);
    std::string origin = net::origin_of(o.final_url.empty() ? url : o.final_url);
    for (const auto& op : doc->operations) {
      // Operation paths keep their templates ("/users/{id}"): they are names, not requests.
      auto* e = note_raw(origin, op.path, op.method, "openapi");
      if (!e) continue;
      for (const auto& p : op.params) add_param(*e, p);
    }
  }

  // As note(), also for paths that do not parse as URLs (templated OpenAPI paths: "/users/{id}").
  Endpoint* note_raw(const std::string& origin, const std::string& path, const std::string& method,
                     const std::string& source) {
    std::string url = origin + path;
    if (split(url)) return note(url, method, source);
    if (!origins_.count(origin)) return nullptr;
    auto it = result_.endpoints.find(url);
    if (it == result_.endpoints.end()) {
      if (result_.endpoints.size() >= L::kEndpoints) return nullptr;
      it = result_.endpoints.emplace(url, Endpoint{}).first;
      it->second.url = url;
    }
    it->second.methods.insert(method);
    it->second.found_by.insert(source);
    return &it->second;
  }

  void probes_and_wordlist(net::ScanSession& session) {
    std::size_t probes = 0;
    for (auto& [url, e] : result_.endpoints) {
      if (e.status || url.find('{') != std::string::npos || !split(url)) continue;
      if (++probes > L::kProbes) break;
      submit(session, url, 0, [this, url = url](const net::CheckOutcome& o) {
        auto a = answer_of("", o);
        if (auto it = result_.endpoints.find(url); it != result_.endpoints.end())
          set_answer(it->second, a.status, a.content_type);
      });
    }
    for (const auto& path : paths_.wordlist()) {
      std::string url = result_.origin + path;
      if (result_.endpoints.count(url)) continue;
      ++result_.wordlist_asked;
      submit(session, url, 0,
             [this, url, path](const net::CheckOutcome& o) { wordlist_.emplace_back(url, answer_of(path, o)); });
    }
  }

  void judge_wordlist() {
    result_.catch_all = catch_all_detected(catch_all_);
    for (const auto& a : catch_all_)
      if (a.status > 0) result_.catch_all_status = a.status;
    for (const auto& [url, answer] : wordlist_) {
      if (!is_endpoint(answer, catch_all_)) {
        if (status_says_exists(answer.status)) ++result_.wordlist_rejected;
        continue;
      }
      if (auto* e = note(url, "GET", "wordlist")) set_answer(*e, answer.status, answer.content_type);
    }
  }

  const net::EgressPolicy& policy_;
  const Paths& paths_;
  Options options_;
  Result result_;
  Clock::time_point deadline_;
  std::set<std::string> origins_;
  std::vector<Answer> catch_all_;
  std::vector<std::pair<std::string, Answer>> wordlist_;
};

std::string key_of(const Result& r, const Endpoint& e) {
  // A prefix test, not origin_of(): templated OpenAPI paths ("/users/{id}") do not parse as URLs.
  if (e.url.compare(0, r.origin.size(), r.origin) != 0) return e.url;
  auto rest = e.url.substr(r.origin.size());
  if (rest.empty()) return "/";
  return rest[0] == '/' ? rest : e.url;
}

boost::json::array strings(const std::set<std::string>& s) {
  boost::json::array out;
  for (const auto& x : s) out.push_back(boost::json::value(x));
  return out;
}

}  // namespace

Result discover(const std::string& target, const net::EgressPolicy& policy, const Paths& paths, Options options) {
  return Discovery(target, policy, paths, std::move(options)).run();
}

boost::json::object to_json(const Result& r) {
  boost::json::object endpoints, by_source;
  for (const auto& [url, e] : r.endpoints) {
    boost::json::array params;
    for (const auto& p : e.params) params.push_back({{"name", p.name}, {"in", p.in}});
    boost::json::object o{
        {"url", e.url},
        {"methods", strings(e.methods)},
        {"parameters", std::move(params)},
        {"status", e.status ? boost::json::value(*e.status) : boost::json::value(nullptr)},
        {"content_type", e.content_type.empty() ? boost::json::value(nullptr) : boost::json::value(e.content_type)},
        {"found_by", strings(e.found_by)}};
    endpoints[key_of(r, e)] = std::move(o);
    for (const auto& s : e.found_by) {
      auto& n = by_source[s];
      n = n.is_int64() ? n.as_int64() + 1 : 1;
    }
  }
  boost::json::array docs;
  for (const auto& d : r.documents)
    docs.push_back({{"url", d.url}, {"spec", d.spec}, {"title", d.title}, {"operations", d.operations}});
  return {{"target", r.target},
          {"partial", r.stopped != "complete"},
          {"stopped", r.stopped},
          {"crawl_stopped", r.crawl_stopped},
          {"timeout", r.timeout_s},
          {"duration_ms", r.duration_ms},
          {"requests", r.requests},
          {"count", r.endpoints.size()},
          {"by_source", std::move(by_source)},
          {"catch_all",
           {{"detected", r.catch_all},
            {"status", r.catch_all_status},
            {"wordlist_asked", r.wordlist_asked},
            {"wordlist_rejected", r.wordlist_rejected}}},
          {"documents", std::move(docs)},
          {"endpoints", std::move(endpoints)}};
}

}  // namespace dozor::endpoints
