#pragma once
// The pure judgements of the auth scan (docs/scan.md "Auth scan"): which parsed form is a login
// form and how to fill it, which cookie is a session cookie and what its flags are, whether two
// failed logins answer alike (user enumeration) or a run of them shows throttling (lockout), and
// how secrets are kept out of evidence. No I/O: auth_scan.cpp makes the requests.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engines/crawl/html_extract.hpp"
#include "engines/net/multi_fetch.hpp"

namespace dozor::authscan {

// A form with exactly one password field (two or more: sign-up or password change) and, when it
// has one, the text-like field the user name goes in.
struct LoginForm {
  std::string page;  // where the form was served
  crawl::Form form;
  std::optional<std::size_t> user_field;  // index into form.fields
  std::size_t password_field = 0;
};

std::optional<LoginForm> as_login_form(const std::string& page, const crawl::Form& form);

// The password field opts out of browser storage: autocomplete="off" or "new-password" on the
// field, or "off" on the form when the field says nothing.
bool password_autocomplete_off(const LoginForm& f);

// The fields a browser would submit with these credentials: hidden and other fields with their
// values (CSRF tokens included), checked boxes only, the first submit button's name if it has one.
std::vector<std::pair<std::string, std::string>> fill(const LoginForm& f, std::string_view user,
                                                      std::string_view password);

// The fields as application/x-www-form-urlencoded.
std::string form_body(const std::vector<std::pair<std::string, std::string>>& fields);

struct SetCookie {
  std::string name;
  std::string value;
  bool secure = false;
  bool http_only = false;
  std::string same_site;  // lower case; empty when absent
};

// One Set-Cookie header value; nullopt when it has no name=value pair.
std::optional<SetCookie> parse_set_cookie(std::string_view header);

// Names session frameworks and hand-made logins use: *sess*, *sid, *token*, auth*, jsessionid,
// phpsessid, asp.net_sessionid, connect.sid, laravel_session, wordpress_logged_in_* …
bool looks_like_session_cookie(std::string_view name);

// A link that ends the session when followed (logout, signout, log-off, exit …): never crawled
// while logged in.
bool is_logout_url(std::string_view url);

// What a login attempt answered, reduced to what a user sees.
struct LoginAnswer {
  int status = 0;
  std::string final_url;
  std::string text;  // visible text, normalized (normalize_text)
  std::size_t length = 0;
  bool throttled = false;
};

// Visible text with each submitted value (user names, passwords) and runs of digits replaced,
// whitespace collapsed: two answers that differ only by the echoed name or a counter compare equal.
std::string normalize_text(std::string_view text, const std::vector<std::string>& submitted);

// An answer that says "slow down": 429 or 423, a Retry-After header, or text naming a lockout,
// too many attempts or a captcha.
bool is_throttled(int status, const std::vector<net::HeaderField>& headers, std::string_view text);

enum class Verdict { Same, Different, Inconclusive };

struct Comparison {
  Verdict verdict = Verdict::Inconclusive;
  std::string reason;  // what differs, for the finding's description
};

// User enumeration: two unknown users (the control) against a likely-existing one. Different
// when the controls agree with each other and the likely user's answer differs in status, final
// URL or text (or in length by more than a tenth); inconclusive when the controls disagree or any
// answer is throttled.
Comparison compare_login_answers(const LoginAnswer& unknown1, const LoginAnswer& unknown2, const LoginAnswer& known);

// User enumeration by timing: the answer times (ms) of failed logins for a likely user and for
// unknown users, taken in turns. Different only when the two sets do not overlap by at least
// `margin_ms` — every sample of one side is that much slower than every sample of the other (in
// either direction): one slow answer on the wrong side, as network noise gives, means Same — and
// the gap exceeds each side's own spread: sides apart but wider than their gap (a delay growing
// with each failure, a throttle) are Inconclusive, as are fewer than two samples a side.
Comparison compare_login_timings(const std::vector<std::int64_t>& known, const std::vector<std::int64_t>& unknown,
                                 std::int64_t margin_ms);

// A Set-Cookie value with the cookie's value masked: "sid=abc; HttpOnly" → "sid=****; HttpOnly"
// (unchanged when no '=' comes before the first ';').
std::string mask_cookie_value(std::string_view set_cookie);

// Every occurrence of each secret (as written, percent-encoded and form-encoded) replaced by "****".
std::string redact(std::string_view text, const std::vector<std::string>& secrets);

// An exchange fit for evidence: Cookie and Authorization values masked, Set-Cookie values masked
// (the attributes kept), the secrets redacted from the request line, header values and excerpt.
void redact_exchange(net::Exchange& ex, const std::vector<std::string>& secrets);

}  // namespace dozor::authscan
