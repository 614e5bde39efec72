#include "engines/secrets.hpp"

#include <re2/re2.h>

#include <array>
#include <boost/url/parse.hpp>
#include <boost/url/url.hpp>
#include <cctype>
#include <set>
#include <vector>

namespace dozor::secrets {

bool is_secret_name(std::string_view name) {
  std::string n;
  for (char c : name) {
    unsigned char u = static_cast<unsigned char>(c);
    if (std::isalnum(u)) n += static_cast<char>(std::tolower(u));
  }
  // Whole words that are secrets by themselves, then fragments that make a name secret wherever
  // they appear ("bot_token", "smtp_password", "x_api_key").
  static constexpr std::array<std::string_view, 6> kWhole = {"key", "pass", "auth", "pin", "otp", "session"};
  static constexpr std::array<std::string_view, 13> kPart = {
      "password",   "passwd",        "passphrase", "token",      "bearer",    "secret",   "apikey",
      "privatekey", "authorization", "cookie",     "credential", "sessionid", "accesskey"};
  for (auto w : kWhole)
    if (n == w) return true;
  for (auto p : kPart)
    if (n.find(p) != std::string::npos) return true;
  return false;
}

std::string mask(std::string_view value) {
  // Only the tail, and only when the value is long enough that two characters reveal little.
  if (value.size() < 8) return "****";
  return "****" + std::string(value.substr(value.size() - 2));
}

bool is_masked(std::string_view value) { return value.rfind("****", 0) == 0 && value.size() <= 6; }

std::optional<std::string> mask_url_userinfo(std::string_view url) {
  auto parsed = boost::urls::parse_uri(url);
  if (!parsed || !parsed->has_userinfo()) return std::nullopt;
  boost::urls::url u(*parsed);
  if (u.has_password())
    u.set_password(mask(u.password()));
  else
    u.set_user(mask(u.user()));
  return std::string(u.buffer());
}

bool has_masked_userinfo(std::string_view url) {
  auto parsed = boost::urls::parse_uri(url);
  if (!parsed || !parsed->has_userinfo()) return false;
  return is_masked(parsed->has_password() ? parsed->password() : parsed->user());
}

boost::json::value mask_json(const boost::json::value& v) {
  if (v.is_string()) {
    if (auto masked = mask_url_userinfo(v.get_string())) return boost::json::string(*masked);
    return v;
  }
  if (v.is_object()) {
    boost::json::object out;
    for (const auto& [k, member] : v.as_object()) {
      if (!is_secret_name(k))
        out[k] = mask_json(member);
      else if (member.is_string())
        out[k] = mask(member.as_string());
      else if (member.is_null())
        out[k] = nullptr;  // no secret set: nothing to hide
      else
        out[k] = "****";
    }
    return out;
  }
  if (v.is_array()) {
    boost::json::array out;
    for (const auto& item : v.as_array()) out.push_back(mask_json(item));
    return out;
  }
  return v;
}

}  // namespace dozor::secrets

namespace dozor::secrets {
namespace {

struct Patterns {
  re2::RE2 private_key{
      R"((?s)(-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----).*?(-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|\z))"};
  re2::RE2 url_credentials{R"(([A-Za-z][A-Za-z0-9+.\-]{0,30}://[^:/@\s"'<>]{0,200}):([^@\s/"'<>]{1,200})@)"};
  re2::RE2 aws_key_id{R"(\b((?:AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|APKA))[A-Z0-9]{16}\b)"};
  re2::RE2 github{R"(\b(gh[pousr]_|github_pat_)[A-Za-z0-9_]{20,})"};
  re2::RE2 slack{R"(\b(xox[abposr]-)[A-Za-z0-9\-]{10,})"};
  re2::RE2 google{R"(\b(AIza)[0-9A-Za-z_\-]{35})"};
  re2::RE2 stripe{R"(\b((?:sk|rk)_(?:live|test)_)[0-9A-Za-z]{10,})"};
  re2::RE2 jwt{R"(\b(eyJ[A-Za-z0-9_\-]{5,}\.eyJ[A-Za-z0-9_\-]{5,})\.[A-Za-z0-9_\-]{10,})"};
  re2::RE2 php_define{
      R"((?i)(define\s*\(\s*['"][A-Z0-9_]*(?:PASSWORD|PASS|SECRET|KEY|SALT|TOKEN)[A-Z0-9_]*['"]\s*,\s*['"])[^'"\n]+)"};
  // A name, its closing quote if any, and the separator: the value starts where the match ends.
  re2::RE2 name_value{R"((?:^|[^A-Za-z0-9_.\-])([A-Za-z][A-Za-z0-9_.\-]{0,63})["']?[ \t]*[:=][ \t]*)"};
  // Prose: "the admin password is hunter2" (a comment, a log line).
  re2::RE2 prose{
      R"((?i)\b((?:password|passwd|pwd|passphrase|secret|token)s?[ \t]+(?:is|was|are)[ \t]+)([^\s<>"'.,;]+))"};
  re2::RE2 auth_scheme{R"((?i)^(?:bearer|basic|token|digest|negotiate|apikey)[ \t]+)"};
};

const Patterns& patterns() {
  static const Patterns p;
  return p;
}

// The words of a name: split at _ . - and at a lower-to-upper change (apiKey → api, key).
std::vector<std::string> words_of(std::string_view name) {
  std::vector<std::string> out(1);
  for (std::size_t i = 0; i < name.size(); ++i) {
    char c = name[i];
    if (c == '_' || c == '.' || c == '-') {
      if (!out.back().empty()) out.emplace_back();
      continue;
    }
    bool upper = c >= 'A' && c <= 'Z';
    if (upper && i > 0 && name[i - 1] >= 'a' && name[i - 1] <= 'z' && !out.back().empty()) out.emplace_back();
    out.back() += upper ? static_cast<char>(c - 'A' + 'a') : c;
  }
  if (out.back().empty()) out.pop_back();
  return out;
}

bool secret_like_name(std::string_view name) {
  static const std::set<std::string, std::less<>> kWords = {
      "password",  "passwd", "pwd",    "pass",          "passphrase", "secret",      "secrets", "token",
      "key",       "apikey", "auth",   "authorization", "credential", "credentials", "dsn",     "salt",
      "sessionid", "cookie", "bearer", "privatekey",    "accesskey",  "secretkey",   "pin",     "otp"};
  for (const auto& w : words_of(name))
    if (kWords.count(w)) return true;
  return is_secret_name(name);
}

bool already_masked(std::string_view v) { return v.empty() || v.rfind("****", 0) == 0; }

// Values no secret is: a flag or a scheme name ("Access-Control-Allow-Credentials: true",
// "token_type": "bearer", "auth: none"), kept as the evidence they are.
bool plain_word(std::string_view v) {
  static const std::set<std::string, std::less<>> kWords = {"true",   "false", "null",     "none",     "yes",
                                                            "no",     "on",    "off",      "required", "optional",
                                                            "bearer", "basic", "disabled", "enabled"};
  std::string lower;
  for (char c : v) lower += c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
  return kWords.count(lower) > 0;
}

bool jwt_with_masked_signature(std::string_view v) {
  return v.rfind("eyJ", 0) == 0 && v.size() > 5 && v.substr(v.size() - 5) == ".****";
}

// A Cookie or Set-Cookie header's value: each cookie's value masked (Set-Cookie: the first pair
// only), names and attributes kept (they are the evidence). Returns where to continue.
std::size_t mask_cookies(std::string& s, std::size_t at, bool set_cookie) {
  std::size_t line_end = s.find_first_of("\r\n", at);
  if (line_end == std::string::npos) line_end = s.size();
  std::size_t pos = at;
  while (pos < line_end) {
    auto eq = s.find('=', pos);
    if (eq == std::string::npos || eq >= line_end) break;
    auto end = s.find(';', eq);
    if (end == std::string::npos || end > line_end) end = line_end;
    std::string_view value(s.data() + eq + 1, end - eq - 1);
    if (!already_masked(value)) {
      s.replace(eq + 1, end - eq - 1, "****");
      line_end = line_end - value.size() + 4;
      end = eq + 5;
    }
    if (set_cookie) return line_end;
    pos = end + 1;
  }
  return line_end;
}

// Masks the value that starts at `at` (after a secret-like name and its separator); returns where
// to continue.
std::size_t mask_value(std::string& s, std::size_t at) {
  if (at >= s.size()) return at;
  re2::StringPiece rest(s.data() + at, s.size() - at), scheme;
  if (patterns().auth_scheme.Match(rest, 0, rest.size(), re2::RE2::ANCHOR_START, &scheme, 1)) at += scheme.size();
  if (at >= s.size()) return at;
  char q = s[at];
  std::size_t start = at, end;
  if (q == '"' || q == '\'') {
    start = at + 1;
    end = s.find_first_of(std::string(1, q) + "\n", start);
    if (end == std::string::npos) end = s.size();
  } else {
    end = s.find_first_of("\r\n&;,<>\"'", start);
    if (end == std::string::npos) end = s.size();
    while (end > start && (s[end - 1] == ' ' || s[end - 1] == '\t')) --end;
  }
  std::string_view value(s.data() + start, end - start);
  if (already_masked(value) || jwt_with_masked_signature(value) || plain_word(value)) return end;
  s.replace(start, end - start, "****");
  return start + 4;
}

}  // namespace

std::string redact_text(std::string_view text) {
  const auto& p = patterns();
  std::string s(text);
  re2::RE2::GlobalReplace(&s, p.private_key, "\\1\n****\n\\2");
  re2::RE2::GlobalReplace(&s, p.url_credentials, "\\1:****@");
  re2::RE2::GlobalReplace(&s, p.aws_key_id, "\\1****");
  re2::RE2::GlobalReplace(&s, p.github, "\\1****");
  re2::RE2::GlobalReplace(&s, p.slack, "\\1****");
  re2::RE2::GlobalReplace(&s, p.google, "\\1****");
  re2::RE2::GlobalReplace(&s, p.stripe, "\\1****");
  re2::RE2::GlobalReplace(&s, p.jwt, "\\1.****");
  re2::RE2::GlobalReplace(&s, p.php_define, "\\1****");
  re2::RE2::GlobalReplace(&s, p.prose, "\\1****");
  std::size_t pos = 0;
  while (pos < s.size()) {
    re2::StringPiece groups[2];
    if (!p.name_value.Match(s, pos, s.size(), re2::RE2::UNANCHORED, groups, 2)) break;
    auto match_end = static_cast<std::size_t>(groups[0].data() - s.data()) + groups[0].size();
    std::string_view name(groups[1].data(), groups[1].size());
    auto words = words_of(name);
    bool cookie = words == std::vector<std::string>{"cookie"},
         set_cookie = words == std::vector<std::string>{"set", "cookie"};
    if (cookie || set_cookie)
      pos = mask_cookies(s, match_end, set_cookie);
    else if (secret_like_name(name))
      pos = mask_value(s, match_end);
    else
      pos = match_end;
    if (groups[0].empty()) ++pos;
  }
  return s;
}

}  // namespace dozor::secrets
