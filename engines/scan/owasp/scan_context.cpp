#include "engines/scan/owasp/scan_context.hpp"

#include "engines/scan/owasp/replay.hpp"

namespace dozor::owasp {

Prober::Prober(const net::EgressPolicy& policy, net::ScanOptions scan, std::size_t cap, Clock::time_point deadline,
               std::function<bool()> cancelled)
    : session_(policy, std::move(scan)), cap_(cap), deadline_(deadline), cancelled_(std::move(cancelled)) {}

bool Prober::stopped() {
  if (!stop_reason_.empty()) return true;
  if (cancelled_ && cancelled_())
    stop_reason_ = "cancelled";
  else if (Clock::now() >= deadline_)
    stop_reason_ = "deadline";
  else if (sent_ >= cap_)
    stop_reason_ = "request_cap";
  return !stop_reason_.empty();
}

std::optional<net::CheckOutcome> Prober::send(const net::FetchRequest& request) {
  if (stopped()) return std::nullopt;
  ++sent_;
  return session_.fetch(request);
}

net::FetchRequest get_request(std::string url, std::optional<int> max_redirects) {
  net::FetchRequest r;
  r.url = std::move(url);
  r.max_redirects = max_redirects;
  r.oversize_is_error = false;  // the start of a large answer is enough to judge it
  return r;
}

audit::Evidence evidence_of(const net::FetchRequest& request, const net::CheckOutcome& answer, std::string excerpt,
                            std::string note) {
  audit::Evidence e;
  e.url = request.url;
  e.excerpt = std::move(excerpt);
  e.note = std::move(note);
  if (!answer.exchanges.empty()) e.exchange = answer.exchanges.back();
  e.replay = curl_command(request.method, request.url, request.headers, request.body);
  return e;
}

audit::Finding make_finding(const FindingText& text, const std::string& confidence, const std::string& where) {
  audit::Finding f;
  f.check = text.check;
  f.title = std::string(text.title) + ": " + where;
  f.severity = text.severity;
  f.confidence = confidence;
  f.owasp = text.owasp;
  f.cwe = text.cwe;
  f.description = text.description;
  f.recommendation = text.recommendation;
  return f;
}

}  // namespace dozor::owasp
