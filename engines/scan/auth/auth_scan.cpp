#include "engines/scan/auth/auth_scan.hpp"

#include <algorithm>
#include <boost/json/array.hpp>
#include <boost/url/parse.hpp>
#include <map>
#include <memory>
#include <set>
#include <thread>

#include "engines/audit/tech/detector.hpp"
#include "engines/crawl/crawler.hpp"
#include "engines/scan/auth/surface.hpp"
#include "engines/scan/owasp/replay.hpp"
#include "engines/text/utf8.hpp"

namespace dozor::authscan {
namespace {

using Clock = std::chrono::steady_clock;
namespace L = limits::auth;

// Where login forms usually live, asked when the crawl found none there (kLoginPaths of them).
constexpr std::array<const char*, L::kLoginPaths> kLoginPaths = {
    "/login",       "/signin", "/sign-in",   "/user/login",   "/account/login",  "/auth/login",
    "/admin/login", "/admin/", "/login.php", "/wp-login.php", "/administrator/", "/users/sign_in"};

constexpr int kDetectionConfidence = 50;       // a technology this sure is a panel worth default credentials
constexpr std::size_t kSecretCookieChars = 8;  // cookie values this long are redacted wherever they appear

const char* const kFormType = "Content-Type: application/x-www-form-urlencoded";

std::string origin_path(const std::string& target, const std::string& path) { return net::origin_of(target) + path; }

bool is_https(std::string_view url) { return url.rfind("https://", 0) == 0; }

// The parsed page of an answer, when it is HTML.
std::optional<crawl::PageFacts> facts_of(const net::CheckOutcome& o) {
  if (o.kind != net::CheckError::None || o.exchanges.empty()) return std::nullopt;
  auto type = net::first_header(o.exchanges.back().response_headers, "content-type").value_or("");
  if (!crawl::is_html_type(type, o.body)) return std::nullopt;
  return crawl::extract_html(o.body, o.final_url);
}

std::optional<LoginForm> login_form_in(const crawl::PageFacts& facts, const std::string& page) {
  for (const auto& f : facts.forms)
    if (auto lf = as_login_form(page, f)) return lf;
  return std::nullopt;
}

bool has_logout_link(const crawl::PageFacts& facts) {
  return std::any_of(facts.links.begin(), facts.links.end(),
                     [](const crawl::Link& l) { return is_logout_url(l.url) || is_logout_url(l.text); });
}

// Netscape cookie-file lines → name → value (the jar of one session: one site).
std::map<std::string, std::string> jar_values(const std::vector<std::string>& lines) {
  std::map<std::string, std::string> out;
  for (const auto& line : lines) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    for (auto tab = line.find('\t'); tab != std::string::npos; tab = line.find('\t', start)) {
      parts.push_back(line.substr(start, tab - start));
      start = tab + 1;
    }
    parts.push_back(line.substr(start));
    if (parts.size() >= 7) out[parts[5]] = parts[6];
  }
  return out;
}

std::string excerpt(std::string_view text, std::size_t from = 0) {
  if (from > text.size()) from = text.size();
  return text::utf8_prefix(text.substr(from), L::kExcerptChars);
}

// Around the first place two texts differ.
std::string difference_excerpt(const std::string& a, const std::string& b) {
  std::size_t i = 0;
  while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
  std::size_t from = i > 60 ? i - 60 : 0;
  while (from > 0 && (static_cast<unsigned char>(a[from]) & 0xC0) == 0x80) --from;
  return excerpt(a, from);
}

struct Attempt {
  net::CheckOutcome outcome;
  LoginAnswer answer;
  std::optional<crawl::PageFacts> facts;
  bool form_gone = false;
  std::string shown_url;
  std::string replay;
  std::string shown_body;
};

// "Set-Cookie: name=abcd…; Path=/" → "Set-Cookie: name=****; Path=/" (the passive rules keep four
// characters of a value; a logged-in session's are not shown at all).
std::string mask_set_cookie(const std::string& excerpt) {
  const std::string prefix = "Set-Cookie: ";
  if (excerpt.rfind(prefix, 0) != 0) return excerpt;
  return prefix + mask_cookie_value(std::string_view(excerpt).substr(prefix.size()));
}

std::string set_cookie_name(const std::string& excerpt) {
  const std::string prefix = "Set-Cookie: ";
  if (excerpt.rfind(prefix, 0) != 0) return {};
  auto eq = excerpt.find('=');
  return eq == std::string::npos ? std::string() : excerpt.substr(prefix.size(), eq - prefix.size());
}

struct CookieSeen {
  SetCookie cookie;
  std::string url;
  net::Exchange exchange;
};

class Scanner {
 public:
  Scanner(const std::string& target, const net::EgressPolicy& policy, const DefaultCredentials& defaults,
          const audit::tech::Fingerprints& fp, AuthOptions options)
      : target_(target),
        policy_(policy),
        defaults_(defaults),
        options_(std::move(options)),
        start_(Clock::now()),
        deadline_(start_ + options_.budget),
        detector_(fp) {
    if (options_.requests_per_second > 0)
      options_.scan.per_host_interval =
          std::max(options_.scan.per_host_interval, std::chrono::milliseconds(1000 / options_.requests_per_second));
    options_.scan.headers.clear();
    const auto& c = options_.credentials;
    for (const auto* s : {&c.password, &c.cookie, &c.bearer})
      if (!s->empty()) secrets_.push_back(*s);
    result_.target = target;
    result_.mode = c.mode();
    if (result_.mode == "form") result_.username = c.username;
    if (result_.mode != "anonymous" && options_.page_observers) anon_observers_.emplace(options_.page_observers());
    anon_ = session();
  }

  AuthResult run() {
    crawl_anonymous();
    probe_login_paths();
    for (const auto& d : detector_.results())
      if (d.tech && d.confidence >= kDetectionConfidence) result_.technologies.push_back(d.tech->slug);
    for (const auto& f : forms_) judge_form(f);
    const LoginForm* main = main_form();
    std::optional<Attempt> failed;
    if (main) failed = user_enumeration(*main);
    if (result_.mode != "anonymous") log_in_and_crawl(main, failed);
    std::size_t timed = 0;  // the probe user's wrong passwords stay few (docs/scan.md "Auth scan")
    for (const auto& f : forms_)
      if (f.user_field && !(&f == main && enumerated_) && timed++ < L::kTimingForms) timing_enumeration(f);
    if (main) lockout(*main);
    default_credentials();
    cookie_findings();
    result_.duration_ms = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start_).count();
    return std::move(result_);
  }

 private:
  std::unique_ptr<net::ScanSession> session(std::vector<std::string> headers = {}) {
    auto o = options_.scan;
    o.headers = std::move(headers);
    return std::make_unique<net::ScanSession>(policy_, std::move(o));
  }

  bool stop() {
    if (result_.stopped != "complete") return true;
    if ((options_.cancelled && options_.cancelled()) || options_.scan.cancel.cancelled())
      result_.stopped = "cancelled";
    else if (Clock::now() >= deadline_)
      result_.stopped = "deadline";
    else if (result_.requests >= options_.request_cap)
      result_.stopped = "request_cap";
    return result_.stopped != "complete";
  }

  // Sessions come and go (a fresh cookie jar per attempt): the pace is kept here, across them.
  void pace() {
    auto next = last_start_ + options_.scan.per_host_interval;
    if (auto now = Clock::now(); next > now) std::this_thread::sleep_for(next - now);
    last_start_ = Clock::now();
  }

  std::optional<net::CheckOutcome> fetch(net::ScanSession& s, net::FetchRequest r) {
    if (stop()) return std::nullopt;
    pace();
    ++result_.requests;
    auto o = s.fetch(std::move(r));
    note_cookies(o.exchanges);
    return o;
  }

  std::optional<net::CheckOutcome> get(net::ScanSession& s, const std::string& url) {
    net::FetchRequest r;
    r.url = url;
    r.headers = {"Accept: text/html,application/xhtml+xml;q=0.9,*/*;q=0.5"};
    return fetch(s, std::move(r));
  }

  std::chrono::milliseconds crawl_budget() const {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline_ - Clock::now());
    return std::clamp(left / 2, std::chrono::milliseconds(0), std::chrono::milliseconds(L::kCrawlShareMs));
  }

  void note_cookies(const std::vector<net::Exchange>& exchanges) {
    for (const auto& ex : exchanges)
      for (const auto& h : ex.response_headers) {
        if (h.name != "set-cookie") continue;
        auto c = parse_set_cookie(h.value);
        if (!c || !looks_like_session_cookie(c->name) || cookies_.count(c->name)) continue;
        cookies_.emplace(c->name, CookieSeen{*c, ex.url, ex});
      }
  }

  void note_form(const LoginForm& f) {
    for (const auto& known : forms_)
      if (known.form.action == f.form.action && known.form.method == f.form.method) return;
    if (forms_.size() >= L::kLoginForms) return;
    forms_.push_back(f);
    result_.login_forms.push_back({f.page, f.form.action, f.form.method,
                                   f.user_field ? f.form.fields[*f.user_field].name : "",
                                   f.form.fields[f.password_field].name});
  }

  void note_page(const std::string& url, const net::CheckOutcome& o) {
    if (!o.exchanges.empty()) page_exchange_.emplace(url, o.exchanges.back());
  }

  // ---------------------------------------------------------------- discovery

  void crawl_anonymous() {
    if (!options_.credentials.login_url.empty()) probe(options_.credentials.login_url);
    crawl::CrawlOptions co;
    co.depth = L::kCrawlDepth;
    co.max_pages = L::kCrawlPages;
    co.scan = options_.scan;
    co.time_budget = crawl_budget();
    co.skip = [](const std::string& url) { return is_logout_url(url); };
    co.on_page = [this](const crawl::PageSeen& p) {
      detector_.page(p);
      note_cookies(p.exchanges);
      if (p.status >= 200 && p.status < 300) anon_pages_.insert(p.url);
      if (!p.exchanges.empty()) page_exchange_.emplace(p.url, p.exchanges.back());
      if (anon_observers_) anon_observers_->observe(p);
      if (p.facts)
        for (const auto& f : p.facts->forms)
          if (auto lf = as_login_form(p.url, f)) note_form(*lf);
    };
    if (stop()) return;
    pace();
    auto r = crawl::crawl(target_, policy_, co);
    last_start_ = Clock::now();
    result_.crawl_requests += r.requests;
    result_.pages_anonymous = r.pages.size();
    for (const auto& p : r.pages) seen_urls_.insert(p.final_url.empty() ? p.url : p.final_url);
    anon_crawl_ = std::move(r);
  }

  void probe(const std::string& url) {
    if (seen_urls_.count(url)) return;
    seen_urls_.insert(url);
    auto o = get(*anon_, url);
    if (!o || o->kind != net::CheckError::None || o->status < 200 || o->status >= 300) return;
    auto facts = facts_of(*o);
    if (!facts) return;
    crawl::PageSeen seen{o->final_url, 1, o->status, o->exchanges, &o->body, &*facts};
    detector_.page(seen);
    if (anon_observers_) anon_observers_->observe(seen);
    note_page(o->final_url, *o);
    if (auto lf = login_form_in(*facts, o->final_url)) note_form(*lf);
  }

  void probe_login_paths() {
    for (const char* path : kLoginPaths) probe(origin_path(target_, path));
  }

  const LoginForm* main_form() const {
    const auto& login_url = options_.credentials.login_url;
    for (const auto& f : forms_)
      if (!login_url.empty() && f.page == login_url && f.user_field) return &f;
    for (const auto& f : forms_)
      if (f.user_field) return &f;
    return nullptr;
  }

  // ---------------------------------------------------------------- findings

  audit::Evidence evidence(const std::string& url, const net::Exchange* ex, const std::string& excerpt_text,
                           const std::string& note, const std::string& replay) const {
    audit::Evidence e;
    e.url = redact(url, secrets_);
    e.excerpt = redact(excerpt_text, secrets_);
    e.note = redact(note, secrets_);
    if (ex) {
      e.exchange = *ex;
      redact_exchange(*e.exchange, secrets_);
    }
    e.replay = redact(replay.empty() ? owasp::curl_command("GET", url, {}) : replay, secrets_);
    return e;
  }

  audit::Evidence attempt_evidence(const Attempt& a, const std::string& note) const {
    const net::Exchange* ex = a.outcome.exchanges.empty() ? nullptr : &a.outcome.exchanges.front();
    std::string text = a.facts ? a.facts->text : a.outcome.body;
    std::string sent = a.shown_body.empty() ? "GET " + a.shown_url : "POST " + a.shown_body;
    return evidence(a.shown_url, ex, sent + "\n→ " + excerpt(text), note, a.replay);
  }

  void add(audit::Finding f) { result_.findings.push_back(std::move(f)); }

  static audit::Finding finding(const char* check, std::string title, audit::Severity sev, const char* confidence,
                                const char* owasp, int cwe, std::string description, std::string recommendation) {
    audit::Finding f;
    f.check = check;
    f.title = std::move(title);
    f.severity = sev;
    f.confidence = confidence;
    f.owasp = owasp;
    f.cwe = cwe;
    f.description = std::move(description);
    f.recommendation = std::move(recommendation);
    return f;
  }

  void judge_form(const LoginForm& f) {
    auto it = page_exchange_.find(f.page);
    const net::Exchange* ex = it == page_exchange_.end() ? nullptr : &it->second;
    std::string shape = "<form action=\"" + f.form.action + "\" method=\"" + f.form.method +
                        "\"> with password field '" + f.form.fields[f.password_field].name + "'";
    if (!is_https(f.page) || !is_https(f.form.action)) {
      auto fi = finding("auth-login-over-http", "Login form over plain HTTP: " + f.page, audit::Severity::High,
                        "certain", "A02:2021", 319,
                        "The login form is served over HTTP or posts the password to an http:// URL: anyone on the "
                        "path reads or changes the credentials.",
                        "Serve the login page and its form target over HTTPS only, redirect HTTP to HTTPS and send "
                        "Strict-Transport-Security.");
      fi.evidence.push_back(evidence(f.page, ex, shape, "form page " + f.page + ", action " + f.form.action, {}));
      add(std::move(fi));
    }
    if (!password_autocomplete_off(f)) {
      const auto& ac = f.form.fields[f.password_field].autocomplete;
      auto fi = finding("auth-password-autocomplete", "Password field lets the browser store the password: " + f.page,
                        audit::Severity::Low, "firm", "A07:2021", 525,
                        "The password field has autocomplete=\"" + (ac.empty() ? std::string("(absent)") : ac) +
                            "\": browsers may keep the password on shared machines.",
                        "Set autocomplete=\"off\" (or \"new-password\") on password fields of sensitive logins, or "
                        "accept it deliberately where password managers are wanted.");
      fi.evidence.push_back(evidence(f.page, ex, shape + " autocomplete=\"" + ac + "\"", {}, {}));
      add(std::move(fi));
    }
  }

  // A fresh copy of the form (hidden tokens change per visit), from its page in `s`.
  LoginForm refreshed(net::ScanSession& s, const LoginForm& f) {
    auto o = get(s, f.page);
    if (!o) return f;
    if (auto facts = facts_of(*o))
      for (const auto& form : facts->forms)
        if (auto lf = as_login_form(f.page, form); lf && lf->form.action == f.form.action) return *lf;
    return f;
  }

  // follow = false: the first answer only (a timed try must not count a redirect's paced next hop).
  std::optional<Attempt> attempt(net::ScanSession& s, const LoginForm& form, const std::string& user,
                                 const std::string& password, bool refresh = true, bool follow = true) {
    LoginForm f = refresh ? refreshed(s, form) : form;
    auto fields = fill(f, user, password);
    auto body = form_body(fields);
    net::FetchRequest r;
    if (!follow) r.max_redirects = 0;
    Attempt a;
    if (f.form.method == "POST") {
      r.method = "POST";
      r.url = f.form.action;
      r.headers = {kFormType};
      r.body = body;
      a.shown_body = redact(body, secrets_);
      a.replay = owasp::curl_command("POST", r.url, {kFormType}, a.shown_body);
    } else {
      auto base = f.form.action.substr(0, f.form.action.find('?'));
      r.url = owasp::url_with_query(base, fields);
      a.replay = owasp::curl_command("GET", redact(r.url, secrets_), {});
    }
    a.shown_url = redact(r.url, secrets_);
    auto o = fetch(s, std::move(r));
    if (!o) return std::nullopt;
    a.outcome = std::move(*o);
    a.facts = facts_of(a.outcome);
    std::string text = a.facts ? a.facts->text : a.outcome.body;
    a.answer.status = a.outcome.status;
    a.answer.final_url = a.outcome.final_url;
    a.answer.length = a.outcome.body.size();
    a.answer.text = normalize_text(text, {user, password});
    a.answer.throttled = is_throttled(
        a.outcome.status,
        a.outcome.exchanges.empty() ? std::vector<net::HeaderField>{} : a.outcome.exchanges.back().response_headers,
        text);
    a.form_gone = !a.facts || !login_form_in(*a.facts, a.outcome.final_url);
    return a;
  }

  static bool succeeded(const Attempt& a, const Attempt& failure) {
    const auto& o = a.outcome;
    if (o.kind != net::CheckError::None || o.status >= 400 || a.answer.throttled || !a.form_gone) return false;
    return a.answer.final_url != failure.answer.final_url || a.answer.text != failure.answer.text ||
           a.answer.status != failure.answer.status;
  }

  std::string likely_user() const {
    return options_.credentials.username.empty() ? "admin" : options_.credentials.username;
  }

  std::optional<Attempt> user_enumeration(const LoginForm& f) {
    auto s = session();
    auto pw = "Dzr-wrong-" + owasp::make_canary();
    auto u1 = "dozor-nouser-" + owasp::make_canary();
    auto u2 = "dozor-nouser-" + owasp::make_canary();
    auto a1 = attempt(*s, f, u1, pw);
    auto a2 = attempt(*s, f, u2, pw);
    auto k = attempt(*s, f, likely_user(), pw);
    if (!a1 || !a2 || !k) return a1;
    auto c = compare_login_answers(a1->answer, a2->answer, k->answer);
    // A successful login with a random password is no enumeration (nor a wrong password).
    if (c.verdict == Verdict::Different && !succeeded(*k, *a1)) {
      auto fi = finding("auth-user-enumeration", "User enumeration at the login form " + f.form.action,
                        audit::Severity::Medium, "firm", "A07:2021", 204,
                        "A wrong password for '" + likely_user() +
                            "' is answered differently from the same wrong "
                            "password for two surely unknown users (" +
                            c.reason + "): an attacker learns which accounts exist.",
                        "Answer every failed login with the same status, page and message (\"Invalid user name or "
                        "password\"), whether or not the account exists.");
      fi.evidence.push_back(
          attempt_evidence(*a1, "unknown user: " + difference_excerpt(a1->answer.text, k->answer.text)));
      fi.evidence.push_back(
          attempt_evidence(*k, "likely user: " + difference_excerpt(k->answer.text, a1->answer.text)));
      add(std::move(fi));
      enumerated_ = true;
    }
    return a1;
  }

  // The user the probing checks (timing, lockout) send wrong passwords for: never the scanned account.
  std::string probe_user() const { return options_.credentials.username != "admin" ? "admin" : "administrator"; }

  // User enumeration by timing: wrong passwords for a likely user and for one surely unknown user,
  // in turns (so drift hits both sides alike), L::kTimingSamples each, timed to the first answer
  // (no redirect followed); reported only when every answer of one side is L::kTimingMarginMs
  // slower than every answer of the other and the sides are farther apart than either is wide
  // (compare_login_timings). The unknown user is one name, so a delay a site adds per repeated
  // name slows both sides. Any throttled, failed or server-error answer: no verdict. The form is
  // re-read before each try only when it has hidden fields (tokens), so the pace stays gentle.
  void timing_enumeration(const LoginForm& f) {
    const auto user = probe_user();
    const auto password = "Dzr-wrong-" + owasp::make_canary();
    const bool refresh = std::any_of(f.form.fields.begin(), f.form.fields.end(),
                                     [](const crawl::FormField& x) { return x.type == "hidden"; });
    const auto stranger = "dozor-nouser-" + owasp::make_canary();
    auto s = session();
    std::vector<std::int64_t> known, unknown;
    std::optional<Attempt> known_shown, unknown_shown;
    for (std::size_t i = 0; i < L::kTimingSamples; ++i) {
      for (int side : {static_cast<int>(i % 2), static_cast<int>(1 - i % 2)}) {
        auto a = attempt(*s, f, side == 0 ? user : stranger, password, refresh, false);
        if (!a || a->outcome.kind != net::CheckError::None || a->answer.throttled || a->outcome.status >= 500) return;
        (side == 0 ? known : unknown).push_back(a->outcome.total_ms);
        (side == 0 ? known_shown : unknown_shown) = std::move(a);
      }
    }
    auto c = compare_login_timings(known, unknown, L::kTimingMarginMs);
    if (c.verdict != Verdict::Different) return;
    auto list = [](const std::vector<std::int64_t>& v) {
      std::string out;
      for (auto ms : v) out.append(out.empty() ? "" : ", ").append(std::to_string(ms));
      return out + " ms";
    };
    auto fi =
        finding("auth-user-enumeration-timing", "User enumeration by response time at the login form " + f.form.action,
                audit::Severity::Medium, "firm", "A07:2021", 208,
                "The same wrong password for '" + user + "' and for " + std::to_string(L::kTimingSamples) +
                    " tries of a surely unknown user (asked in turns) is not answered in the same time (" + c.reason +
                    "): the site does work only for existing accounts (typically the password "
                    "hash), so timing tells an attacker which accounts exist even when the messages are alike.",
                "Make a failed login cost the same whether or not the account exists: verify the password "
                "against a dummy hash for unknown users (or always run the same hash), and throttle failed "
                "logins.");
    fi.evidence.push_back(attempt_evidence(*known_shown, "likely user '" + user + "': answered in " + list(known)));
    fi.evidence.push_back(attempt_evidence(*unknown_shown, "unknown user: answered in " + list(unknown)));
    add(std::move(fi));
  }

  void lockout(const LoginForm& f) {
    std::string user = probe_user();
    auto s = session();
    std::vector<Attempt> tries;
    for (int i = 0; i < L::kLockoutAttempts; ++i) {
      auto a = attempt(*s, f, user, "Dzr-wrong-" + owasp::make_canary());
      if (!a) return;  // out of budget: no verdict
      if (a->answer.throttled) return;
      if (!tries.empty()) {
        const auto& first = tries.front().answer;
        if (a->answer.status != first.status || a->answer.final_url != first.final_url || a->answer.text != first.text)
          return;  // the answer changed: something reacts, no verdict
      }
      tries.push_back(std::move(*a));
    }
    auto fi = finding("auth-no-lockout", "No lockout or rate limit at the login form " + f.form.action,
                      audit::Severity::Medium, "firm", "A07:2021", 307,
                      std::to_string(L::kLockoutAttempts) + " wrong passwords in a row for '" + user +
                          "' were all answered alike: no 429, no Retry-After, no lockout or captcha message.",
                      "Throttle failed logins per account and client (increasing delays, 429 with Retry-After, a "
                      "captcha after a few failures) without letting strangers lock the rightful user out.");
    fi.evidence.push_back(attempt_evidence(tries.front(), "attempt 1"));
    fi.evidence.push_back(attempt_evidence(tries.back(), "attempt " + std::to_string(L::kLockoutAttempts)));
    add(std::move(fi));
  }

  // ---------------------------------------------------------------- logged in

  void log_in_and_crawl(const LoginForm* main, const std::optional<Attempt>& failed) {
    const auto& c = options_.credentials;
    std::string header;
    std::string start = target_;
    if (result_.mode == "form") {
      if (!main) {
        result_.login_error = "no login form found (give login_url: the page with the form)";
        return;
      }
      auto s = session();
      LoginForm f = refreshed(*s, *main);
      auto before = jar_values(s->cookies());
      auto a = attempt(*s, f, c.username, c.password, false);
      if (!a) return;
      if (a->form_gone) result_.login_proof.emplace_back("login form gone");
      if (a->facts && has_logout_link(*a->facts)) result_.login_proof.emplace_back("logout link");
      if (failed && succeeded(*a, *failed)) result_.login_proof.emplace_back("answer differs from a failed login");
      result_.logged_in = a->form_gone && failed && succeeded(*a, *failed);
      if (!result_.logged_in) {
        result_.login_error = a->answer.throttled ? "the login was throttled" : "the login did not succeed";
        return;
      }
      auto after = jar_values(s->cookies());
      session_fixation(before, after, *a);
      std::string cookie;
      for (const auto& [name, value] : after) {
        if (!cookie.empty()) cookie += "; ";
        cookie.append(name).append("=").append(value);
      }
      if (cookie.empty()) {
        result_.login_error = "the login set no cookie to crawl with";
        result_.logged_in = false;
        return;
      }
      header = "Cookie: " + cookie;
      secrets_.push_back(cookie);
      for (const auto& [name, value] : after)
        if (value.size() >= kSecretCookieChars) secrets_.push_back(value);  // shorter ones would mangle excerpts
      if (net::origin_of(a->outcome.final_url) == net::origin_of(target_)) start = a->outcome.final_url;
    } else {
      header = result_.mode == "cookie" ? "Cookie: " + c.cookie : "Authorization: Bearer " + c.bearer;
      if (!verify_header_session(header)) return;
    }
    crawl_as_user(header, start);
  }

  bool verify_header_session(const std::string& header) {
    auto user = session({header});
    auto anon = session();
    auto u = get(*user, target_);
    auto a = get(*anon, target_);
    if (!u || !a) return false;
    auto uf = facts_of(*u);
    auto af = facts_of(*a);
    if (u->status < 400 && u->status != a->status) result_.login_proof.emplace_back("status differs from anonymous");
    if (u->final_url != a->final_url) result_.login_proof.emplace_back("lands elsewhere than anonymous");
    if (uf && has_logout_link(*uf) && !(af && has_logout_link(*af))) result_.login_proof.emplace_back("logout link");
    if (af && login_form_in(*af, a->final_url) && uf && !login_form_in(*uf, u->final_url))
      result_.login_proof.emplace_back("login form gone");
    if (uf && af && normalize_text(uf->text, {}) != normalize_text(af->text, {}))
      result_.login_proof.emplace_back("page differs from anonymous");
    result_.logged_in = u->kind == net::CheckError::None && u->status < 400 && !result_.login_proof.empty();
    if (!result_.logged_in) result_.login_error = "the " + result_.mode + " did not change what the site answers";
    return result_.logged_in;
  }

  void session_fixation(const std::map<std::string, std::string>& before,
                        const std::map<std::string, std::string>& after, const Attempt& login) {
    for (const auto& [name, value] : before) {
      if (!looks_like_session_cookie(name) || value.empty()) continue;
      auto it = after.find(name);
      if (it == after.end() || it->second != value) continue;
      auto fi = finding("auth-session-fixation", "Session fixation: cookie " + name + " is kept across login",
                        audit::Severity::High, "firm", "A07:2021", 384,
                        "The session cookie '" + name +
                            "' set before the login still holds the same value after a "
                            "successful login: whoever planted that value in a victim's browser shares the victim's "
                            "logged-in session.",
                        "Issue a new session identifier at every login (and privilege change) and invalidate the old "
                        "one on the server.");
      fi.evidence.push_back(attempt_evidence(login, "cookie " + name + " unchanged by the login (value not shown)"));
      add(std::move(fi));
    }
  }

  void crawl_as_user(const std::string& header, const std::string& start) {
    std::map<std::string, std::string> user_pages;  // URL → final URL, 2xx only
    crawl::CrawlOptions co;
    co.depth = L::kCrawlDepth;
    co.max_pages = L::kCrawlPages;
    co.scan = options_.scan;
    co.scan.headers = {header};
    co.time_budget = crawl_budget();
    co.skip = [](const std::string& url) { return is_logout_url(url); };
    std::optional<audit::ObserverSet> observers;
    if (anon_observers_) observers.emplace(options_.page_observers());
    co.on_page = [&](const crawl::PageSeen& p) {
      note_cookies(p.exchanges);
      if (observers) observers->observe(p);
      if (p.status >= 200 && p.status < 300 && p.html) user_pages.emplace(p.url, p.url);
    };
    if (stop()) return;
    pace();
    auto r = crawl::crawl(start, policy_, co);
    last_start_ = Clock::now();
    result_.crawl_requests += r.requests;
    result_.pages_user = r.pages.size();
    if (observers) {
      audit::AuditParts user, anon;
      observers->finish(r, user);
      anon_observers_->finish(anon_crawl_, anon);
      passive_as_user(std::move(user), std::move(anon), header);
    }
    std::size_t rechecked = 0;
    for (const auto& [url, final_url] : user_pages) {
      if (anon_pages_.count(url) || is_logout_url(url)) continue;
      if (rechecked++ >= L::kUserOnlyRechecks) break;
      auto o = get(*anon_, url);
      if (!o) break;
      bool refused = o->kind != net::CheckError::None || o->status >= 400;
      bool moved = o->final_url != url;
      auto facts = facts_of(*o);
      bool login_shown = facts && login_form_in(*facts, o->final_url);
      if (refused || moved || login_shown) result_.user_only.push_back(url);
    }
  }

  // The observers' findings on the logged-in pages, less every occurrence (check and excerpt, a
  // cookie's name) the anonymous pages show and the session cookies the auth-session-cookie-* findings judge; each
  // evidence redacted and given a replay with the session masked.
  void passive_as_user(audit::AuditParts user, audit::AuditParts anon, const std::string& header) {
    // A cookie's occurrence is its name: a cookie set again on every answer (a load balancer's)
    // changes value and expiry each time, yet is the same finding.
    auto key = [](const audit::Finding& f, const audit::Evidence& e) {
      auto name = f.check.rfind("cookie-", 0) == 0 ? set_cookie_name(e.excerpt) : std::string();
      return name.empty() ? e.excerpt : "cookie " + name;
    };
    std::set<std::pair<std::string, std::string>> shown;
    for (const auto& f : anon.findings)
      for (const auto& e : f.evidence) shown.emplace(f.check, key(f, e));
    for (auto& f : user.findings) {
      std::vector<audit::Evidence> kept;
      for (auto& e : f.evidence) {
        if (shown.count({f.check, key(f, e)})) continue;
        if (f.check.rfind("cookie-", 0) == 0 && cookies_.count(set_cookie_name(e.excerpt))) continue;
        audit::Evidence out = evidence(e.url, e.exchange ? &*e.exchange : nullptr, mask_set_cookie(e.excerpt),
                                       "logged-in page" + (e.note.empty() ? "" : ": " + e.note),
                                       owasp::curl_command("GET", e.url, {header}));
        kept.push_back(std::move(out));
      }
      if (kept.empty()) continue;
      f.evidence = std::move(kept);
      f.title += " (logged-in pages)";
      result_.logged_in_findings.push_back(std::move(f));
    }
    for (auto* parts : {&anon, &user})
      result_.passive_errors.insert(result_.passive_errors.end(), parts->errors.begin(), parts->errors.end());
  }

  // ---------------------------------------------------------------- panels and cookies

  void default_credentials() {
    for (const auto& slug : result_.technologies) {
      const Panel* panel = defaults_.find(slug);
      if (!panel) continue;
      for (const auto& path : panel->login_paths) {
        if (stop()) return;
        auto url = origin_path(target_, path);
        auto s = session();
        auto page = get(*s, url);
        if (!page) return;
        auto facts = facts_of(*page);
        if (!facts) continue;
        auto form = login_form_in(*facts, page->final_url);
        if (!form || !form->user_field) continue;
        if (try_panel(*panel, *form)) break;
      }
    }
  }

  bool try_panel(const Panel& panel, const LoginForm& form) {
    auto s = session();
    auto failure = attempt(*s, form, panel.credentials.front().first, "Dzr-wrong-" + owasp::make_canary());
    if (!failure || failure->answer.throttled) return false;
    for (const auto& [user, password] : panel.credentials) {
      auto fresh = session();
      auto a = attempt(*fresh, form, user, password);
      if (!a) return false;
      if (!succeeded(*a, *failure)) continue;
      std::string pair = user;
      pair.append("/").append(password);
      std::string why = "Technology detection identified " + panel.name;
      why.append("; its login form at ").append(form.page).append(" accepted the factory credentials ").append(pair);
      why.append(" (the login form is gone from the answer, which differs from a failed login).");
      auto fi = finding("auth-default-credentials", panel.name + " accepts its default credentials " + pair,
                        audit::Severity::Critical, "certain", "A07:2021", 1392, std::move(why),
                        "Change the default password (and user name) at once, and restrict the panel to trusted "
                        "networks.");
      fi.evidence.push_back(attempt_evidence(*a, "the answer to the default credentials"));
      add(std::move(fi));
      return true;
    }
    return false;
  }

  void cookie_findings() {
    for (const auto& entry : cookies_) {
      const std::string& name = entry.first;
      const CookieSeen& seen = entry.second;
      std::string line;
      for (const auto& h : seen.exchange.response_headers)
        if (h.name == "set-cookie" && h.value.rfind(name + "=", 0) == 0) line = h.value;
      auto shown =
          "Set-Cookie: " + name + "=****" + (line.find(';') == std::string::npos ? "" : line.substr(line.find(';')));
      auto make = [&](const char* check, const std::string& flag, audit::Severity sev, int cwe, std::string why,
                      std::string fix) {
        std::string title = "Session cookie " + name;
        title.append(" without ").append(flag);
        auto fi = finding(check, std::move(title), sev, "firm", "A05:2021", cwe, std::move(why), std::move(fix));
        fi.evidence.push_back(evidence(seen.url, &seen.exchange, shown, {}, {}));
        add(std::move(fi));
      };
      if (!seen.cookie.http_only)
        make("auth-session-cookie-no-httponly", "HttpOnly", audit::Severity::Medium, 1004,
             "Scripts can read the session cookie '" + name + "': one XSS steals the session.",
             "Set HttpOnly on session cookies.");
      if (is_https(seen.url) && !seen.cookie.secure)
        make("auth-session-cookie-no-secure", "Secure", audit::Severity::Medium, 614,
             "The session cookie '" + name +
                 "' is set over HTTPS without Secure: the browser also sends it over "
                 "plain HTTP.",
             "Set Secure on session cookies (and serve the site over HTTPS only).");
      if (seen.cookie.same_site.empty() || seen.cookie.same_site == "none")
        make("auth-session-cookie-no-samesite", "SameSite", audit::Severity::Low, 1275,
             "The session cookie '" + name +
                 "' has no SameSite=Lax or Strict: cross-site requests carry it "
                 "(cross-site request forgery).",
             "Set SameSite=Lax (or Strict) on session cookies.");
    }
  }

  std::string target_;
  const net::EgressPolicy& policy_;
  const DefaultCredentials& defaults_;
  AuthOptions options_;
  Clock::time_point start_;
  Clock::time_point deadline_;
  Clock::time_point last_start_{};
  audit::tech::Detector detector_;
  std::unique_ptr<net::ScanSession> anon_;
  AuthResult result_;
  std::vector<std::string> secrets_;
  std::vector<LoginForm> forms_;
  std::map<std::string, CookieSeen> cookies_;
  std::map<std::string, net::Exchange> page_exchange_;
  std::set<std::string> anon_pages_;
  std::set<std::string> seen_urls_;
  std::optional<audit::ObserverSet> anon_observers_;  // with credentials and page_observers only
  crawl::CrawlResult anon_crawl_;
  bool enumerated_ = false;  // the message check reported the main form
};

bool has_ctl(std::string_view s) {
  return std::any_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; });
}

}  // namespace

std::string Credentials::mode() const {
  if (!username.empty() || !password.empty()) return "form";
  if (!cookie.empty()) return "cookie";
  if (!bearer.empty()) return "bearer";
  return "anonymous";
}

std::optional<CredentialProblem> check_credentials(const Credentials& c, const std::string& target) {
  int ways =
      (!c.username.empty() || !c.password.empty() ? 1 : 0) + (c.cookie.empty() ? 0 : 1) + (c.bearer.empty() ? 0 : 1);
  if (ways > 1) return CredentialProblem{"cookie", "give one of username/password, cookie or bearer"};
  if (!c.username.empty() && c.password.empty())
    return CredentialProblem{"password", "password is required with username"};
  if (c.username.empty() && !c.password.empty())
    return CredentialProblem{"username", "username is required with password"};
  if (!c.login_url.empty()) {
    if (c.username.empty()) return CredentialProblem{"login_url", "login_url goes with username and password"};
    auto u = boost::urls::parse_uri(c.login_url);
    if (!u || (u->scheme() != "http" && u->scheme() != "https") ||
        net::origin_of(c.login_url) != net::origin_of(target))
      return CredentialProblem{"login_url", "login_url must be an http(s) URL on the scanned site's origin"};
  }
  for (const auto& [field, value, max] :
       {std::tuple{"username", &c.username, L::kFieldChars}, std::tuple{"password", &c.password, L::kFieldChars},
        std::tuple{"login_url", &c.login_url, L::kFieldChars}, std::tuple{"cookie", &c.cookie, L::kHeaderChars},
        std::tuple{"bearer", &c.bearer, L::kHeaderChars}}) {
    if (value->size() > max) return CredentialProblem{field, "at most " + std::to_string(max) + " characters"};
    if (has_ctl(*value)) return CredentialProblem{field, "control characters are not allowed"};
  }
  return std::nullopt;
}

Credentials credentials_from(const boost::json::object& options) {
  auto str = [&](const char* key) {
    const auto* v = options.if_contains(key);
    return v && v->is_string() ? std::string(v->as_string()) : std::string();
  };
  return {str("username"), str("password"), str("login_url"), str("cookie"), str("bearer")};
}

AuthResult scan(const std::string& target, const net::EgressPolicy& policy, const DefaultCredentials& defaults,
                const audit::tech::Fingerprints& fingerprints, AuthOptions options) {
  return Scanner(target, policy, defaults, fingerprints, std::move(options)).run();
}

boost::json::object to_json(const AuthResult& r) {
  boost::json::array findings;
  boost::json::object by_severity;
  boost::json::object by_category;
  auto count = [&](const audit::Finding& f) {
    auto sev = std::string(audit::to_string(f.severity));
    by_severity[sev] = (by_severity.contains(sev) ? by_severity[sev].as_int64() : 0) + 1;
    if (!f.owasp.empty())
      by_category[f.owasp] = (by_category.contains(f.owasp) ? by_category[f.owasp].as_int64() : 0) + 1;
  };
  for (const auto& f : r.findings) {
    auto j = audit::to_json(f);
    j["logged_in"] = false;
    findings.push_back(std::move(j));
    count(f);
  }
  for (const auto& f : r.logged_in_findings) {
    auto j = audit::to_json(f);
    j["logged_in"] = true;
    findings.push_back(std::move(j));
    count(f);
  }
  boost::json::array passive_errors;
  for (const auto& e : r.passive_errors) passive_errors.push_back({{"check", e.check}, {"error", e.error}});
  boost::json::array forms;
  for (const auto& f : r.login_forms)
    forms.push_back({{"page", f.page},
                     {"action", f.action},
                     {"method", f.method},
                     {"user_field", f.user_field},
                     {"password_field", f.password_field}});
  auto strings = [](const std::vector<std::string>& v) {
    boost::json::array a;
    for (const auto& s : v) a.emplace_back(s);
    return a;
  };
  return {{"target", r.target},
          {"mode", r.mode},
          {"username", r.username.empty() ? boost::json::value(nullptr) : boost::json::value(r.username)},
          {"logged_in", r.logged_in},
          {"login_proof", strings(r.login_proof)},
          {"login_error", r.login_error.empty() ? boost::json::value(nullptr) : boost::json::value(r.login_error)},
          {"login_forms", std::move(forms)},
          {"technologies", strings(r.technologies)},
          {"user_only", strings(r.user_only)},
          {"findings", std::move(findings)},
          {"passive_errors", std::move(passive_errors)},
          {"by_severity", std::move(by_severity)},
          {"by_category", std::move(by_category)},
          {"pages_anonymous", r.pages_anonymous},
          {"pages_user", r.pages_user},
          {"requests", r.requests},
          {"crawl_requests", r.crawl_requests},
          {"stopped", r.stopped},
          {"duration_ms", r.duration_ms}};
}

}  // namespace dozor::authscan
