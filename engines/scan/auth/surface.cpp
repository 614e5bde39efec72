#include "engines/scan/auth/surface.hpp"

#include <algorithm>
#include <array>
#include <cctype>

#include "engines/scan/owasp/replay.hpp"
#include "engines/text/ascii.hpp"

namespace dozor::authscan {
namespace {

bool contains_any(std::string_view haystack, std::initializer_list<std::string_view> needles) {
  return std::any_of(needles.begin(), needles.end(),
                     [&](std::string_view n) { return haystack.find(n) != std::string_view::npos; });
}

bool text_like(const crawl::FormField& f) {
  return f.tag == "input" && (f.type == "text" || f.type == "email" || f.type == "tel" || f.type.empty());
}

void replace_all(std::string& s, std::string_view what, std::string_view with) {
  if (what.empty()) return;
  for (auto at = s.find(what); at != std::string::npos; at = s.find(what, at + with.size()))
    s.replace(at, what.size(), with);
}

}  // namespace

std::optional<LoginForm> as_login_form(const std::string& page, const crawl::Form& form) {
  std::optional<std::size_t> password;
  for (std::size_t i = 0; i < form.fields.size(); ++i) {
    if (form.fields[i].tag != "input" || form.fields[i].type != "password") continue;
    if (password) return std::nullopt;  // two password fields: sign-up or a password change
    password = i;
  }
  if (!password) return std::nullopt;
  LoginForm out{page, form, std::nullopt, *password};
  // The user name: a field named like one, else the last text-like field before the password.
  for (std::size_t i = 0; i < form.fields.size(); ++i) {
    const auto& f = form.fields[i];
    if (!text_like(f) || f.name.empty()) continue;
    if (contains_any(text::ascii_lower(f.name), {"user", "login", "mail", "name", "log", "account", "phone"})) {
      out.user_field = i;
      break;
    }
  }
  if (!out.user_field)
    for (std::size_t i = *password; i-- > 0;)
      if (text_like(form.fields[i]) && !form.fields[i].name.empty()) {
        out.user_field = i;
        break;
      }
  return out;
}

bool password_autocomplete_off(const LoginForm& f) {
  const auto& field = f.form.fields[f.password_field].autocomplete;
  if (field == "off" || field == "new-password") return true;
  return field.empty() && f.form.autocomplete == "off";
}

std::vector<std::pair<std::string, std::string>> fill(const LoginForm& f, std::string_view user,
                                                      std::string_view password) {
  std::vector<std::pair<std::string, std::string>> out;
  bool submit_named = false;
  for (std::size_t i = 0; i < f.form.fields.size(); ++i) {
    const auto& field = f.form.fields[i];
    if (field.name.empty()) continue;
    if (i == f.password_field) {
      out.emplace_back(field.name, std::string(password));
    } else if (f.user_field && i == *f.user_field) {
      out.emplace_back(field.name, std::string(user));
    } else if (field.type == "submit" || field.type == "image") {
      if (!submit_named) out.emplace_back(field.name, field.value);
      submit_named = true;
    } else if (field.type == "checkbox" || field.type == "radio") {
      if (field.checked) out.emplace_back(field.name, field.value.empty() ? "on" : field.value);
    } else if (field.type != "button" && field.type != "reset" && field.type != "file") {
      out.emplace_back(field.name, field.value);
    }
  }
  return out;
}

std::string form_body(const std::vector<std::pair<std::string, std::string>>& fields) {
  std::string out;
  for (const auto& [name, value] : fields) {
    if (!out.empty()) out += '&';
    out += owasp::url_encode(name) + "=" + owasp::url_encode(value);
  }
  return out;
}

std::optional<SetCookie> parse_set_cookie(std::string_view header) {
  SetCookie c;
  bool first = true;
  while (!header.empty()) {
    auto semi = header.find(';');
    auto part = text::trim_space(header.substr(0, semi));
    header = semi == std::string_view::npos ? std::string_view{} : header.substr(semi + 1);
    auto eq = part.find('=');
    if (first) {
      first = false;
      if (eq == std::string_view::npos || eq == 0) return std::nullopt;
      c.name = std::string(text::trim_space(part.substr(0, eq)));
      c.value = std::string(text::trim_space(part.substr(eq + 1)));
      if (c.name.empty()) return std::nullopt;
      continue;
    }
    auto key = text::ascii_lower(text::trim_space(part.substr(0, eq)));
    if (key == "secure") c.secure = true;
    if (key == "httponly") c.http_only = true;
    if (key == "samesite" && eq != std::string_view::npos)
      c.same_site = text::ascii_lower(text::trim_space(part.substr(eq + 1)));
  }
  return c;
}

bool looks_like_session_cookie(std::string_view name) {
  auto n = text::ascii_lower(name);
  if (contains_any(n, {"csrf", "xsrf"})) return false;  // read by scripts on purpose
  static constexpr std::array<std::string_view, 4> kExact = {"sid", "auth", "jwt", "token"};
  if (std::find(kExact.begin(), kExact.end(), n) != kExact.end()) return true;
  return contains_any(n, {"sess", "_sid", "sid_", ".sid", "-sid", "auth", "token", "logged_in", "remember",
                          "jsessionid", "login", "jwt"}) ||
         (n.size() > 3 && n.compare(n.size() - 3, 3, "sid") == 0);
}

bool is_logout_url(std::string_view url) {
  auto u = text::ascii_lower(url);
  return contains_any(
      u, {"logout", "log-out", "log_out", "signout", "sign-out", "sign_out", "logoff", "log-off", "exit", "destroy"});
}

std::string normalize_text(std::string_view text, const std::vector<std::string>& submitted) {
  std::string s(text);
  for (const auto& v : submitted) {
    replace_all(s, v, "\x01");
    replace_all(s, owasp::url_encode(v), "\x01");
  }
  std::string out;
  bool space = false;
  bool digits = false;
  for (char ch : s) {
    auto c = static_cast<unsigned char>(ch);
    if (std::isspace(c)) {
      space = !out.empty();
      continue;
    }
    if (std::isdigit(c)) {
      if (digits) continue;
      digits = true;
      ch = '0';
    } else {
      digits = false;
    }
    if (space) out += ' ';
    space = false;
    out += ch;
  }
  return out;
}

bool is_throttled(int status, const std::vector<net::HeaderField>& headers, std::string_view text) {
  if (status == 429 || status == 423) return true;
  for (const auto& h : headers)
    if (h.name == "retry-after") return true;
  return contains_any(text::ascii_lower(text),
                      {"too many", "locked", "captcha", "try again later", "temporarily blocked", "слишком много",
                       "заблокирован", "попробуйте позже"});
}

Comparison compare_login_answers(const LoginAnswer& unknown1, const LoginAnswer& unknown2, const LoginAnswer& known) {
  if (unknown1.throttled || unknown2.throttled || known.throttled)
    return {Verdict::Inconclusive, "an answer was throttled"};
  auto length_far = [](std::size_t a, std::size_t b) {
    auto d = a > b ? a - b : b - a;
    return d * 10 > std::max(a, b);
  };
  if (unknown1.status != unknown2.status || unknown1.final_url != unknown2.final_url ||
      unknown1.text != unknown2.text || length_far(unknown1.length, unknown2.length))
    return {Verdict::Inconclusive, "two unknown users are answered differently already"};
  if (known.status != unknown1.status)
    return {Verdict::Different, "status " + std::to_string(known.status) + " for the likely user, " +
                                    std::to_string(unknown1.status) + " for an unknown one"};
  if (known.final_url != unknown1.final_url)
    return {Verdict::Different,
            "the likely user lands on " + known.final_url + ", an unknown one on " + unknown1.final_url};
  if (known.text != unknown1.text) return {Verdict::Different, "the message differs"};
  if (length_far(known.length, unknown1.length))
    return {Verdict::Different, "the answer's length differs: " + std::to_string(known.length) + " against " +
                                    std::to_string(unknown1.length) + " bytes"};
  return {Verdict::Same, "answered alike"};
}

Comparison compare_login_timings(const std::vector<std::int64_t>& known, const std::vector<std::int64_t>& unknown,
                                 std::int64_t margin_ms) {
  if (known.size() < 2 || unknown.size() < 2) return {Verdict::Inconclusive, "too few samples"};
  auto [kmin, kmax] = std::minmax_element(known.begin(), known.end());
  auto [umin, umax] = std::minmax_element(unknown.begin(), unknown.end());
  auto range = [](std::int64_t lo, std::int64_t hi) { return std::to_string(lo) + "–" + std::to_string(hi) + " ms"; };
  auto both = "the likely user's answers took " + range(*kmin, *kmax) + ", the unknown users' " + range(*umin, *umax);
  // The gap must also exceed each side's own spread: a delay that grows with every failure (a
  // throttle) widens one side instead of moving it as a whole.
  const auto spread = std::max(*kmax - *kmin, *umax - *umin);
  if (*kmin >= *umax + margin_ms && *kmin - *umax > spread)
    return {Verdict::Different, both + ": the likely user's are always slower"};
  if (*umin >= *kmax + margin_ms && *umin - *kmax > spread)
    return {Verdict::Different, both + ": the likely user's are always faster"};
  if (*kmin >= *umax + margin_ms || *umin >= *kmax + margin_ms)
    return {Verdict::Inconclusive, both + ": apart, but each side spreads wider than the gap (a growing delay?)"};
  return {Verdict::Same, both};
}

std::string mask_cookie_value(std::string_view set_cookie) {
  auto eq = set_cookie.find('=');
  auto semi = set_cookie.find(';');
  if (eq == std::string_view::npos || (semi != std::string_view::npos && semi < eq)) return std::string(set_cookie);
  std::string out(set_cookie.substr(0, eq + 1));
  out += "****";
  if (semi != std::string_view::npos) out += set_cookie.substr(semi);
  return out;
}

std::string redact(std::string_view text, const std::vector<std::string>& secrets) {
  std::string out(text);
  for (const auto& s : secrets) {
    if (s.empty()) continue;
    replace_all(out, s, "****");
    replace_all(out, owasp::url_encode(s), "****");
    auto plus = owasp::url_encode(s);
    replace_all(plus, "%20", "+");
    replace_all(out, plus, "****");
  }
  return out;
}

void redact_exchange(net::Exchange& ex, const std::vector<std::string>& secrets) {
  ex.url = redact(ex.url, secrets);
  ex.request_line = redact(ex.request_line, secrets);
  for (auto& h : ex.request_headers)
    h.value = h.name == "cookie" || h.name == "authorization" ? "****" : redact(h.value, secrets);
  for (auto& h : ex.response_headers) {
    if (h.name == "set-cookie") h.value = mask_cookie_value(h.value);
    h.value = redact(h.value, secrets);
  }
  ex.body_excerpt = redact(ex.body_excerpt, secrets);
}

}  // namespace dozor::authscan
