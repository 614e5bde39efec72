#include "engines/scan/templates/scanner.hpp"

#include <algorithm>
#include <boost/json/array.hpp>
#include <deque>
#include <optional>

#include "engines/audit/exposures/judge.hpp"
#include "engines/limits.hpp"
#include "engines/scan/templates/match.hpp"

namespace dozor::scan::templates {
namespace {

namespace lim = limits::templates;

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// One template's walk through its requests, one at a time.
struct Walk {
  const Template* t = nullptr;
  std::size_t block = 0;
  std::size_t request = 0;
  std::optional<std::size_t> finding;  // index in RunResult::findings
};

class Runner {
 public:
  Runner(const std::string& target, const net::EgressPolicy& policy, RunOptions& o, RunResult& r)
      : vars_(target_variables(target)),
        origin_(net::origin_of(vars_.at("RootURL"))),
        options_(o),
        result_(r),
        session_(policy, scan_options(o.scan)) {}

  void run(const std::vector<const Template*>& selected) {
    for (const auto* t : selected) waiting_.push_back(t);
    start_more();
    if (!session_.run(options_.deadline)) stop("the time budget ran out");
    if (!waiting_.empty() || active_ > 0) result_.complete = false;
  }

 private:
  static net::ScanOptions scan_options(net::ScanOptions s) {
    s.max_body = std::min(s.max_body, lim::kBodyBytes);
    return s;
  }

  void stop(const std::string& why) {
    if (stopped_) return;
    stopped_ = true;
    result_.complete = false;
    result_.errors.push_back("stopped: " + why);
  }

  bool cancelled() {
    if (!stopped_ && options_.cancelled && options_.cancelled()) stop("cancelled");
    return stopped_;
  }

  void start_more() {
    while (active_ < lim::kActiveTemplates && !waiting_.empty() && !cancelled()) {
      auto w = std::make_shared<Walk>();
      w->t = waiting_.front();
      waiting_.pop_front();
      ++active_;
      next(w);
    }
  }

  void finish(const std::shared_ptr<Walk>&) {
    --active_;
    ++result_.templates_run;
    start_more();
  }

  // Submits the walk's current request, or finishes the walk.
  void next(const std::shared_ptr<Walk>& w) {
    while (w->block < w->t->http.size() && w->request >= w->t->http[w->block].requests.size()) {
      ++w->block;
      w->request = 0;
    }
    if (w->block >= w->t->http.size()) return finish(w);
    if (cancelled()) return;  // the walk stays unfinished: the result says incomplete
    const auto& spec = w->t->http[w->block].requests[w->request];
    net::FetchRequest req;
    std::vector<std::string> headers;
    try {
      req.url = expand(spec.path, vars_);
      for (const auto& [name, value] : spec.headers) headers.push_back(name + ": " + expand(value, vars_));
      req.body = expand(spec.body, vars_);
    } catch (const std::invalid_argument& e) {
      result_.errors.push_back(w->t->id + ": " + e.what());
      return finish(w);
    }
    if (net::origin_of(req.url) != origin_) {  // templates scan the target's origin only
      result_.errors.push_back(w->t->id + ": a request leaves the target's origin: " + req.url.substr(0, 200));
      return finish(w);
    }
    req.method = spec.method;
    req.headers = headers;
    req.max_redirects = w->t->http[w->block].max_redirects;
    req.oversize_is_error = false;
    ++result_.requests;
    auto curl = curl_command(spec.method, req.url, headers, req.body);
    auto url = req.url;
    session_.submit(std::move(req), [this, w, curl = std::move(curl), url = std::move(url)](net::CheckOutcome o) {
      answered(w, std::move(o), curl, url);
    });
  }

  void answered(const std::shared_ptr<Walk>& w, net::CheckOutcome o, const std::string& curl, const std::string& url) {
    const auto& block = w->t->http[w->block];
    bool matched = false;
    if (!o.responded || o.exchanges.empty()) {
      ++result_.failed_requests;
    } else {
      const auto& x = o.exchanges.back();
      Response r;
      r.status = o.status;
      r.headers = header_text(x.response_headers);
      r.body = std::move(o.body);
      auto b = evaluate(block, r, x.response_headers);
      matched = b.matched;
      if (matched) record(*w, b, x, curl, o.final_url.empty() ? url : o.final_url);
    }
    ++w->request;
    if (matched && block.stop_at_first_match) {  // this block is done
      ++w->block;
      w->request = 0;
    }
    next(w);
  }

  void record(Walk& w, const BlockOutcome& b, const net::Exchange& x, const std::string& curl, const std::string& url) {
    const Template& t = *w.t;
    if (!w.finding) {
      w.finding = result_.findings.size();
      TemplateFinding tf;
      tf.template_id = t.id;
      tf.template_file = t.file;
      tf.curl = curl;
      auto& f = tf.finding;
      f.check = "template:" + t.id;
      f.title = t.name;
      f.severity = t.severity;
      f.owasp = t.owasp;
      f.cwe = t.cwe;
      f.description = t.description;
      f.recommendation = t.remediation;
      f.references = t.references;
      result_.findings.push_back(std::move(tf));
    }
    auto& tf = result_.findings[*w.finding];
    // Templates tagged `secrets` show that a secret is there, not the secret (as the exposures do).
    bool secret = std::find(t.tags.begin(), t.tags.end(), "secrets") != t.tags.end();
    auto shown = [secret](const std::string& s) { return secret ? audit::exposures::redact(s) : s; };
    for (const auto& v : b.extracted)
      if (tf.extracted.size() < lim::kExtractedValues) tf.extracted.push_back(shown(v));
    audit::Evidence e;
    e.url = url;
    e.excerpt = shown(b.excerpt);
    e.note = x.request_line + " answered " + std::to_string(x.status) + "; replay: " + curl;
    e.exchange = x;
    e.exchange->body_excerpt = shown(x.body_excerpt);
    if (tf.finding.evidence.size() < limits::kAuditEvidencePerFinding) tf.finding.evidence.push_back(std::move(e));
  }

  std::map<std::string, std::string> vars_;
  std::string origin_;
  RunOptions& options_;
  RunResult& result_;
  net::ScanSession session_;
  std::deque<const Template*> waiting_;
  std::size_t active_ = 0;
  bool stopped_ = false;
};

}  // namespace

std::string curl_command(const std::string& method, const std::string& url, const std::vector<std::string>& headers,
                         const std::string& body) {
  std::string out = "curl -i -s -k";
  if (method != "GET" || !body.empty()) out += " -X " + shell_quote(method);
  for (const auto& h : headers) out += " -H " + shell_quote(h);
  if (!body.empty()) out += " --data-raw " + shell_quote(body);
  return out + " " + shell_quote(url);
}

RunResult run(const std::string& target, const std::vector<Template>& templates, const net::EgressPolicy& policy,
              RunOptions options) {
  RunResult result;
  std::vector<const Template*> selected;
  for (const auto& t : templates)
    if (options.severities.empty() || options.severities.contains(t.severity)) selected.push_back(&t);
  result.templates_selected = selected.size();
  Runner(target, policy, options, result).run(selected);
  return result;
}

boost::json::object to_json(const TemplateFinding& f) {
  auto o = audit::to_json(f.finding);
  boost::json::array extracted;
  for (const auto& v : f.extracted) extracted.push_back(boost::json::string(v));
  o["template_id"] = f.template_id;
  o["extracted"] = std::move(extracted);
  o["curl"] = f.curl;
  return o;
}

}  // namespace dozor::scan::templates
