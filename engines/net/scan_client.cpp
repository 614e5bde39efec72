#include "engines/net/scan_client.hpp"

#include <curl/curl.h>

#include <algorithm>
#include <boost/url/parse.hpp>
#include <boost/url/url.hpp>
#include <stdexcept>
#include <thread>

#include "engines/net/pacing.hpp"

namespace dozor::net {

std::vector<std::string> header_values(const std::vector<HeaderField>& fields, std::string_view name) {
  std::vector<std::string> out;
  for (const auto& f : fields)
    if (f.name == name) out.push_back(f.value);
  return out;
}

std::optional<std::string> first_header(const std::vector<HeaderField>& fields, std::string_view name) {
  for (const auto& f : fields)
    if (f.name == name) return f.value;
  return std::nullopt;
}

std::string origin_of(std::string_view url) {
  auto u = boost::urls::parse_uri(url);
  if (!u) return std::string(url);
  boost::urls::url v(*u);
  v.normalize_scheme();
  v.normalize_authority();
  std::string port =
      v.has_port() ? std::string(v.port()) : (v.scheme_id() == boost::urls::scheme::https ? std::string("443") : "80");
  return std::string(v.scheme()) + "://" + std::string(v.encoded_host()) + ":" + port;
}

ScanSession::ScanSession(const EgressPolicy& policy, ScanOptions options)
    : options_(std::move(options)), fetcher_(std::make_unique<MultiFetcher>(policy)) {
  CURLSH* share = curl_share_init();
  if (!share) throw std::runtime_error("scan session: cannot initialise libcurl share");
  // One thread drives the session, so the share needs no lock callbacks.
  curl_share_setopt(share, CURLSHOPT_SHARE, CURL_LOCK_DATA_COOKIE);
  share_ = share;
}

ScanSession::~ScanSession() {
  fetcher_.reset();  // the easy handles that use the share go first
  curl_share_cleanup(static_cast<CURLSH*>(share_));
}

void ScanSession::submit(FetchRequest request, Done done) {
  auto origin = origin_of(request.url);
  if (options_.scope && !options_.scope(origin)) {
    refused_.push_back({std::move(request), std::move(done), std::move(origin)});
    return;
  }
  queue_.push_back({std::move(request), std::move(done), std::move(origin)});
}

void ScanSession::answer_refused() {
  while (!refused_.empty()) {
    Pending p = std::move(refused_.front());
    refused_.pop_front();
    CheckOutcome o;
    o.kind = CheckError::OutOfScope;
    o.error = "not sent: " + p.origin + " is outside the scan's scope";
    o.final_url = p.request.url;
    o.out_of_scope_url = p.request.url;
    p.done(std::move(o));  // may submit more
  }
}

void ScanSession::pump(Clock::time_point now) {
  for (auto it = queue_.begin(); it != queue_.end() && running_ < options_.max_in_flight;) {
    auto& busy = in_flight_[it->origin];
    auto next = next_allowed_.find(it->origin);
    if (busy >= options_.per_host_concurrency || (next != next_allowed_.end() && next->second > now)) {
      ++it;
      continue;
    }
    Pending p = std::move(*it);
    it = queue_.erase(it);
    ++busy;
    ++running_;
    ++started_;
    auto& slot = next_allowed_[p.origin];
    slot = next_start_slot(slot, now, options_.per_host_interval);
    CheckRequest c;
    c.url = p.request.url;
    c.method = p.request.method;
    c.headers = options_.headers;
    c.headers.insert(c.headers.end(), p.request.headers.begin(), p.request.headers.end());
    c.body = p.request.body;
    c.timeout = options_.request_timeout;
    c.max_redirects = p.request.max_redirects.value_or(options_.max_redirects);
    c.max_body = options_.max_body;
    c.keep_body = p.request.method != "HEAD";
    c.oversize_is_error = p.request.oversize_is_error;
    c.verify_tls = p.request.verify_tls;
    c.ca_file = options_.ca_file;
    c.user_agent = options_.user_agent;
    c.record = true;
    c.cookie_share = share_;
    c.hop_interval = options_.per_host_interval;
    if (options_.scope)
      c.follow_allowed = [scope = options_.scope](const std::string& url) { return scope(origin_of(url)); };
    auto generation = generation_;
    fetcher_->start(std::move(c), [this, origin = p.origin, done = std::move(p.done), generation](CheckOutcome o) {
      if (generation != generation_) return;  // abandoned at a deadline
      --in_flight_[origin];
      --running_;
      // A followed redirect started its last hop after the start counted above: the next
      // request to this origin waits a whole interval from now.
      if (o.exchanges.size() > 1) {
        auto& allowed = next_allowed_[origin];
        allowed = std::max(allowed, Clock::now() + options_.per_host_interval);
      }
      done(std::move(o));
    });
  }
}

ScanSession::Clock::time_point ScanSession::next_start() const {
  auto soonest = Clock::time_point::max();
  for (const auto& p : queue_) {
    auto it = next_allowed_.find(p.origin);
    auto at = it == next_allowed_.end() ? Clock::time_point::min() : it->second;
    soonest = std::min(soonest, at);
  }
  return soonest;
}

bool ScanSession::run(Clock::time_point deadline) {
  answer_refused();
  while (!queue_.empty() || running_ > 0 || !refused_.empty()) {
    auto now = Clock::now();
    if (now >= deadline || options_.cancel.cancelled()) {
      queue_.clear();
      refused_.clear();
      ++generation_;  // in-flight transfers finish into nothing
      running_ = 0;
      in_flight_.clear();
      return false;
    }
    answer_refused();
    pump(now);
    if (queue_.empty() && running_ == 0) continue;
    auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now);
    if (!queue_.empty()) {
      auto next = next_start();
      if (next > now)
        wait = std::min(
            wait, std::chrono::duration_cast<std::chrono::milliseconds>(next - now) + std::chrono::milliseconds(1));
      else if (running_ >= options_.max_in_flight || running_ > 0)
        wait = std::min(wait, std::chrono::milliseconds(50));
    }
    wait = std::clamp(wait, std::chrono::milliseconds(1), std::chrono::milliseconds(200));
    if (running_ > 0)
      fetcher_->run(wait);
    else
      std::this_thread::sleep_for(wait);
  }
  return true;
}

CheckOutcome ScanSession::fetch(FetchRequest request) {
  std::optional<CheckOutcome> result;
  submit(std::move(request), [&](CheckOutcome o) { result = std::move(o); });
  // The request's own timeout bounds it; the deadline is only a backstop.
  run(Clock::now() + options_.request_timeout + std::chrono::seconds(5));
  if (!result) {
    CheckOutcome o;
    o.kind = CheckError::Timeout;
    o.error = "timed out after " + std::to_string(options_.request_timeout.count()) + " ms";
    return o;
  }
  return std::move(*result);
}

std::vector<std::string> ScanSession::cookies() const {
  std::vector<std::string> out;
  CURL* e = curl_easy_init();
  if (!e) return out;
  curl_easy_setopt(e, CURLOPT_SHARE, share_);
  curl_easy_setopt(e, CURLOPT_COOKIEFILE, "");
  curl_slist* list = nullptr;
  if (curl_easy_getinfo(e, CURLINFO_COOKIELIST, &list) == CURLE_OK)
    for (curl_slist* s = list; s; s = s->next) out.emplace_back(s->data);
  curl_slist_free_all(list);
  curl_easy_cleanup(e);
  return out;
}

}  // namespace dozor::net
