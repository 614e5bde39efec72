#include "engines/scan/api/signals.hpp"

#include <re2/re2.h>

#include <algorithm>
#include <array>
#include <boost/json/parse.hpp>

#include "engines/limits.hpp"

namespace dozor::api {
namespace {

namespace L = limits::api;

struct Signature {
  const char* platform;
  const char* pattern;
};

// Each pattern needs a source location or a runtime's own frame syntax, not just an exception's name.
constexpr std::array<Signature, 11> kSignatures{{
    {"python", R"(Traceback \(most recent call last\):)"},
    {"python", R"(File "[^"\n]{1,300}", line \d+, in [\w<>]+)"},
    {"java", R"(\n\s*at [\w$./]{1,300}\([\w$]{1,100}\.(?:java|kt|scala):\d+\))"},
    {"java", R"(Exception in thread "[^"\n]{1,100}" [\w$.]+(?:Exception|Error))"},
    {"php",
     R"((?:Fatal error|Parse error|Warning|Notice)(?:</b>)?:\s.{1,500}? in (?:<b>)?[^\s<]{1,300}\.php(?:</b>)? on line (?:<b>)?\d+)"},
    {"php", R"(Stack trace:\s*\n?#0 [^\n]{1,300}\.php\(\d+\))"},
    {"dotnet", R"(\bat [\w.`<>$]{1,300}\([^)\n]{0,300}\) in [^\n]{1,300}\.(?:cs|vb):line \d+)"},
    {"dotnet", R"(Server Error in '[^'\n]{0,200}' Application\.)"},
    {"dotnet", R"(\n\s*at (?:[\w.`<>$]+\.){2,}[\w<>$]+\([^)\n]{0,300}\)\s*\n\s*at )"},
    {"node",
     R"(\n\s*at (?:async )?[^\n]{0,200}\(?(?:/|[A-Za-z]:\\|file://)[^\n]{1,300}\.(?:js|mjs|cjs|ts):\d+:\d+\)?)"},
    {"node", R"(\n\s*at [^\n]{0,200}\(node:internal/[^\n]{1,200}:\d+:\d+\))"},
}};

const std::vector<std::unique_ptr<RE2>>& compiled() {
  static const auto all = [] {
    std::vector<std::unique_ptr<RE2>> out;
    RE2::Options o;
    o.set_log_errors(false);
    o.set_max_mem(8 << 20);
    out.reserve(kSignatures.size());
    for (const auto& s : kSignatures) out.push_back(std::make_unique<RE2>(s.pattern, o));
    return out;
  }();
  return all;
}

std::string normalized(std::string_view key) {
  std::string out;
  for (char c : key) {
    auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u)) out.push_back(static_cast<char>(std::tolower(u)));
  }
  return out;
}

bool ends_with(std::string_view s, std::string_view tail) {
  return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}

// What a field's name says it holds ("" for nothing sensitive), on the name without separators.
std::string kind_by_name(const std::string& key, bool tokens_expected) {
  static constexpr std::array<std::string_view, 9> kHash{"passwordhash",   "passwdhash", "pwdhash",
                                                         "hashedpassword", "passhash",   "pwhash",
                                                         "passworddigest", "hash",       "passwordsalt"};
  for (auto h : kHash)
    if (key == h) return "password hash";
  static constexpr std::array<std::string_view, 5> kPassword{"password", "passwd", "pwd", "pass", "userpassword"};
  for (auto p : kPassword)
    if (key == p) return "password";
  if (ends_with(key, "password")) return "password";
  static constexpr std::array<std::string_view, 9> kSecret{"secret",    "clientsecret", "apisecret",
                                                           "apikey",    "privatekey",   "secretkey",
                                                           "accesskey", "signingkey",   "otpsecret"};
  for (auto s : kSecret)
    if (key == s) return "secret";
  if (ends_with(key, "secret")) return "secret";
  static constexpr std::array<std::string_view, 6> kToken{"token",        "accesstoken", "refreshtoken",
                                                          "sessiontoken", "authtoken",   "idtoken"};
  if (!tokens_expected)
    for (auto t : kToken)
      if (key == t) return "token";
  static constexpr std::array<std::string_view, 6> kCard{"card",     "cardnumber", "creditcard",
                                                         "ccnumber", "pan",        "cardno"};
  for (auto c : kCard)
    if (key == c) return "card number";
  return "";
}

std::string digits_of(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c >= '0' && c <= '9')
      out.push_back(c);
    else if (c != ' ' && c != '-')
      return "";
  }
  return out;
}

bool crypt_hash(std::string_view v) {
  static const RE2 re(
      R"(^(?:\$2[abxy]?\$\d\d\$[./A-Za-z0-9]{53}|\$argon2(?:id|i|d)\$\S{20,}|\$[156]\$[^$]{1,16}\$[./A-Za-z0-9]{22,}|pbkdf2_sha256\$\d+\$\S+|\{SSHA\}\S+)$)");
  return v.size() < 512 && RE2::FullMatch(re2::StringPiece(v.data(), v.size()), re);
}

std::string masked(const std::string& v) {
  constexpr std::size_t kShown = 6;
  if (v.size() <= kShown) return std::string(v.size(), '*');
  return v.substr(0, kShown) + "…(" + std::to_string(v.size()) + " chars)";
}

std::string scalar_text(const boost::json::value& v) {
  if (v.is_string()) return std::string(v.as_string());
  if (v.is_int64()) return std::to_string(v.as_int64());
  if (v.is_uint64()) return std::to_string(v.as_uint64());
  return "";
}

struct Walker {
  bool tokens_expected;
  std::vector<SensitiveField> hits;
  std::size_t nodes = 0;

  void add(const std::string& path, std::string kind, const std::string& value) {
    if (hits.size() < L::kSensitiveHits) hits.push_back({path, std::move(kind), masked(value)});
  }

  void field(const std::string& path, const std::string& key, const boost::json::value& v) {
    auto text = scalar_text(v);
    if (text.empty()) return;
    auto name = normalized(key);
    if (name == "snils") {
      if (auto d = digits_of(text); d.size() == 11 && snils_valid(d)) add(path, "SNILS", text);
      return;
    }
    if (name == "inn") {
      if (auto d = digits_of(text); (d.size() == 10 || d.size() == 12) && inn_valid(d)) add(path, "INN", text);
      return;
    }
    if (crypt_hash(text)) {
      add(path, "password hash", text);
      return;
    }
    auto kind = kind_by_name(name, tokens_expected);
    if (kind == "card number") {
      if (auto d = digits_of(text); d.size() >= 13 && d.size() <= 19 && luhn_valid(d)) add(path, kind, text);
      return;
    }
    if (!kind.empty() && v.is_string()) {
      add(path, kind, text);
      return;
    }
    // A card number under any name: 13–19 digits, grouped or not, passing Luhn, of a card network's first digit.
    if (v.is_string()) {
      auto d = digits_of(text);
      if (d.size() >= 13 && d.size() <= 19 && d[0] >= '2' && d[0] <= '6' && text.size() <= 23 && luhn_valid(d))
        add(path, "card number", text);
    }
  }

  void walk(const boost::json::value& v, const std::string& path, std::size_t depth) {
    if (++nodes > L::kJsonNodes || depth > L::kJsonDepth || hits.size() >= L::kSensitiveHits) return;
    if (v.is_object()) {
      for (const auto& kv : v.as_object()) {
        std::string key(kv.key());
        std::string child = path;
        if (!child.empty()) child += '.';
        child += key;
        if (kv.value().is_structured())
          walk(kv.value(), child, depth + 1);
        else
          field(child, key, kv.value());
      }
    } else if (v.is_array()) {
      std::size_t i = 0;
      for (const auto& item : v.as_array()) {
        walk(item, path + "[" + std::to_string(i++) + "]", depth + 1);
        if (nodes > L::kJsonNodes) return;
      }
    }
  }
};

std::optional<boost::json::value> parse_bounded(std::string_view body) {
  if (body.size() > L::kBodyBytes) return std::nullopt;
  boost::system::error_code ec;
  boost::json::parse_options opts;
  opts.max_depth = L::kJsonDepth;
  auto v = boost::json::parse(body, ec, {}, opts);
  if (ec) return std::nullopt;
  return v;
}

bool contains_word(std::string_view path, std::initializer_list<std::string_view> words) {
  std::string lower;
  for (char c : path) lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  return std::any_of(words.begin(), words.end(), [&](auto w) { return lower.find(w) != std::string::npos; });
}

}  // namespace

std::optional<TraceMatch> find_stack_trace(std::string_view body) {
  if (body.size() > L::kBodyBytes) body = body.substr(0, L::kBodyBytes);
  std::optional<TraceMatch> best;
  const auto& res = compiled();
  for (std::size_t i = 0; i < kSignatures.size(); ++i) {
    if (!res[i]->ok()) continue;
    re2::StringPiece m;
    if (!res[i]->Match(re2::StringPiece(body.data(), body.size()), 0, body.size(), RE2::UNANCHORED, &m, 1)) continue;
    auto offset = static_cast<std::size_t>(m.data() - body.data());
    if (!best || offset < best->offset) best = TraceMatch{kSignatures[i].platform, offset, m.size()};
  }
  return best;
}

std::vector<SensitiveField> sensitive_json_fields(const boost::json::value& answer, bool tokens_expected) {
  Walker w{tokens_expected, {}, 0};
  w.walk(answer, "", 0);
  return std::move(w.hits);
}

std::vector<SensitiveField> sensitive_fields(std::string_view body, bool tokens_expected) {
  auto v = parse_bounded(body);
  if (!v) return {};
  return sensitive_json_fields(*v, tokens_expected);
}

bool luhn_valid(std::string_view digits) {
  if (digits.empty()) return false;
  int sum = 0;
  bool twice = false;
  for (auto it = digits.rbegin(); it != digits.rend(); ++it) {
    if (*it < '0' || *it > '9') return false;
    int d = *it - '0';
    if (twice) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
    twice = !twice;
  }
  return sum % 10 == 0;
}

bool snils_valid(std::string_view digits) {
  if (digits.size() != 11 || !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return false;
  int sum = 0;
  for (int i = 0; i < 9; ++i) sum += (digits[static_cast<std::size_t>(i)] - '0') * (9 - i);
  int check = sum < 100 ? sum : (sum == 100 || sum == 101) ? 0 : sum % 101 == 100 ? 0 : sum % 101;
  return check == (digits[9] - '0') * 10 + (digits[10] - '0');
}

bool inn_valid(std::string_view digits) {
  if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) return false;
  auto check = [&](const std::initializer_list<int>& weights) {
    int sum = 0;
    std::size_t i = 0;
    for (int w : weights) sum += (digits[i++] - '0') * w;
    return sum % 11 % 10;
  };
  if (digits.size() == 10) return check({2, 4, 10, 3, 5, 9, 4, 6, 8}) == digits[9] - '0';
  if (digits.size() == 12)
    return check({7, 2, 4, 10, 3, 5, 9, 4, 6, 8}) == digits[10] - '0' &&
           check({3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8}) == digits[11] - '0';
  return false;
}

std::optional<std::string> introspection_query_type(std::string_view body) {
  auto v = parse_bounded(body);
  if (!v || !v->is_object()) return std::nullopt;
  const auto* data = v->as_object().if_contains("data");
  if (!data || !data->is_object()) return std::nullopt;
  const auto* schema = data->as_object().if_contains("__schema");
  if (!schema || !schema->is_object()) return std::nullopt;
  const auto* query = schema->as_object().if_contains("queryType");
  if (!query || !query->is_object()) return std::nullopt;
  const auto* name = query->as_object().if_contains("name");
  if (!name || !name->is_string() || name->as_string().empty()) return std::nullopt;
  return std::string(name->as_string());
}

bool graphql_answer(std::string_view body) {
  auto v = parse_bounded(body);
  if (!v || !v->is_object()) return false;
  const auto& o = v->as_object();
  if (const auto* e = o.if_contains("errors"); e && e->is_array()) return true;
  if (const auto* d = o.if_contains("data"); d && (d->is_object() || d->is_null())) return true;
  return false;
}

bool has_rate_limit_headers(const std::vector<net::HeaderField>& headers) {
  return std::any_of(headers.begin(), headers.end(), [](const net::HeaderField& h) {
    const auto& n = h.name;
    return n.rfind("ratelimit", 0) == 0 || n.rfind("x-ratelimit", 0) == 0 || n.rfind("x-rate-limit", 0) == 0 ||
           n == "retry-after";
  });
}

bool personal_resource(std::string_view path) {
  return contains_word(path, {"user", "account", "customer", "client", "member", "profile", "person", "people",
                              "employee", "patient", "order", "invoice", "payment", "contact", "address"});
}

bool auth_operation(std::string_view path) {
  return contains_word(path, {"login", "logon", "signin", "sign-in", "token", "auth", "session", "oauth", "sso"});
}

}  // namespace dozor::api
