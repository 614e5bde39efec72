#include "engines/scan/templates/template.hpp"

#include <re2/re2.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <array>
#include <boost/url/parse.hpp>
#include <cctype>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

#include "engines/limits.hpp"

namespace dozor::scan::templates {
namespace {

namespace lim = limits::templates;

[[noreturn]] void unsupported(const std::string& why) { throw std::invalid_argument(why); }

constexpr std::array<std::string_view, 7> kVariableNames = {"BaseURL", "RootURL", "Hostname", "Host",
                                                            "Port",    "Path",    "Scheme"};

// Protocols and features of the format this engine does not run: named in the skip reason.
constexpr std::array<std::string_view, 16> kOtherProtocols = {
    "dns",  "file",      "network",    "tcp",       "headless",       "ssl",       "websocket",    "whois", "code",
    "flow", "workflows", "javascript", "variables", "self-contained", "signature", "multiprotocol"};

template <std::size_t N>
bool listed(const std::array<std::string_view, N>& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

std::string scalar(const YAML::Node& n, const std::string& what) {
  if (!n.IsScalar()) unsupported(what + " is not a text");
  return n.as<std::string>();
}

bool boolean(const YAML::Node& n, const std::string& what) {
  if (!n.IsScalar()) unsupported(what + " is not true or false");
  try {
    return n.as<bool>();
  } catch (const YAML::Exception&) {
    unsupported(what + " is not true or false");
  }
}

long integer(const YAML::Node& n, const std::string& what, long min, long max) {
  if (!n.IsScalar()) unsupported(what + " is not a number");
  long v = 0;
  try {
    v = n.as<long>();
  } catch (const YAML::Exception&) {
    unsupported(what + " is not a number");
  }
  if (v < min || v > max) unsupported(what + " is out of range");
  return v;
}

// A text or a list of texts (the format allows both for tags, authors, references).
std::vector<std::string> texts(const YAML::Node& n, const std::string& what) {
  std::vector<std::string> out;
  if (!n || n.IsNull()) return out;
  if (n.IsScalar()) return {n.as<std::string>()};
  if (!n.IsSequence()) unsupported(what + " is not a list");
  for (const auto& e : n) out.push_back(scalar(e, what));
  return out;
}

std::string trim(std::string_view s) {
  auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos) return "";
  auto e = s.find_last_not_of(" \t\r\n");
  return std::string(s.substr(b, e - b + 1));
}

// Every {{…}} of `text` must be one of the target variables.
void check_variables(std::string_view text, const std::string& where) {
  std::size_t at = 0;
  while ((at = text.find("{{", at)) != std::string_view::npos) {
    auto end = text.find("}}", at + 2);
    if (end == std::string_view::npos) unsupported(where + ": unterminated {{");
    auto name = trim(text.substr(at + 2, end - at - 2));
    if (!listed(kVariableNames, name))
      unsupported(std::string(where).append(": unsupported variable or helper {{").append(name).append("}}"));
    at = end + 2;
  }
}

void check_keys(const YAML::Node& map, const std::set<std::string, std::less<>>& allowed, const std::string& where) {
  for (const auto& kv : map) {
    auto key = kv.first.as<std::string>();
    if (!allowed.contains(key)) unsupported(std::string(where).append(": unsupported key '").append(key).append("'"));
  }
}

Part part_of(const YAML::Node& n, const std::string& where) {
  if (!n) return Part::Body;
  auto p = scalar(n, where + ".part");
  if (p == "body") return Part::Body;
  if (p == "header" || p == "all_headers") return Part::Header;
  if (p == "all" || p == "response" || p == "raw") return Part::All;
  unsupported(where + ": unsupported part '" + p + "'");
}

std::shared_ptr<const re2::RE2> compile(const std::string& pattern, bool case_insensitive, const std::string& where) {
  re2::RE2::Options o(re2::RE2::Quiet);
  o.set_case_sensitive(!case_insensitive);
  auto re = std::make_shared<re2::RE2>(pattern, o);
  if (!re->ok()) unsupported(where + ": regex not supported by RE2: " + re->error());
  return re;
}

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

Matcher parse_matcher(const YAML::Node& m, const std::string& where) {
  if (!m.IsMap()) unsupported(where + " is not a map");
  check_keys(m,
             {"type", "part", "words", "regex", "status", "size", "dsl", "condition", "negative", "case-insensitive",
              "name", "internal"},
             where);
  Matcher out;
  auto type = m["type"] ? scalar(m["type"], where + ".type") : "";
  out.part = part_of(m["part"], where);
  if (m["condition"]) {
    auto c = scalar(m["condition"], where + ".condition");
    if (c != "and" && c != "or") unsupported(where + ": condition must be and or or");
    out.all = c == "and";
  }
  if (m["negative"]) out.negative = boolean(m["negative"], where + ".negative");
  if (m["case-insensitive"]) out.case_insensitive = boolean(m["case-insensitive"], where + ".case-insensitive");
  auto need = [&](const char* key) {
    if (!m[key] || !m[key].IsSequence() || m[key].size() == 0) unsupported(where + ": " + key + " must be a list");
    return m[key];
  };
  if (type == "word") {
    out.type = Matcher::Type::Word;
    for (const auto& w : need("words")) {
      auto word = scalar(w, where + ".words");
      if (word.find("{{") != std::string::npos) unsupported(where + ": variables in words are not supported");
      if (word.empty()) unsupported(where + ": an empty word matches everything");
      out.words.push_back(out.case_insensitive ? lower(word) : word);
    }
  } else if (type == "regex") {
    out.type = Matcher::Type::Regex;
    for (const auto& r : need("regex")) out.regexes.push_back(compile(scalar(r, where), out.case_insensitive, where));
  } else if (type == "status") {
    out.type = Matcher::Type::Status;
    for (const auto& s : need("status")) out.status.push_back(static_cast<int>(integer(s, where, 100, 599)));
  } else if (type == "size") {
    out.type = Matcher::Type::Size;
    for (const auto& s : need("size")) out.sizes.push_back(static_cast<std::size_t>(integer(s, where, 0, 1L << 40)));
  } else if (type == "dsl") {
    out.type = Matcher::Type::Dsl;
    for (const auto& d : need("dsl")) {
      try {
        out.dsl.push_back(DslExpr::parse(scalar(d, where)));
      } catch (const std::invalid_argument& e) {
        unsupported(where + ": " + e.what());
      }
    }
  } else {
    unsupported(where + ": unsupported matcher type '" + type + "'");
  }
  return out;
}

Extractor parse_extractor(const YAML::Node& x, const std::string& where) {
  if (!x.IsMap()) unsupported(where + " is not a map");
  check_keys(x, {"type", "part", "regex", "group", "kval", "name", "internal", "case-insensitive"}, where);
  if (x["internal"] && boolean(x["internal"], where + ".internal"))
    unsupported(where + ": internal extractors (values for later requests) are not supported");
  Extractor out;
  out.part = part_of(x["part"], where);
  if (x["name"]) out.name = scalar(x["name"], where + ".name");
  bool ci = x["case-insensitive"] && boolean(x["case-insensitive"], where + ".case-insensitive");
  auto type = x["type"] ? scalar(x["type"], where + ".type") : "";
  if (type == "regex") {
    if (!x["regex"] || !x["regex"].IsSequence() || x["regex"].size() == 0)
      unsupported(where + ": regex must be a list");
    if (x["group"]) out.group = static_cast<int>(integer(x["group"], where + ".group", 0, 32));
    for (const auto& r : x["regex"]) {
      auto re = compile(scalar(r, where), ci, where);
      if (out.group > re->NumberOfCapturingGroups()) unsupported(where + ": group beyond the regex's groups");
      out.regexes.push_back(std::move(re));
    }
  } else if (type == "kval") {
    out.type = Extractor::Type::Kval;
    for (auto k : texts(x["kval"], where + ".kval")) {
      k = lower(k);
      std::replace(k.begin(), k.end(), '-', '_');
      out.keys.push_back(std::move(k));
    }
    if (out.keys.empty()) unsupported(where + ": kval must name keys");
  } else {
    unsupported(where + ": unsupported extractor type '" + type + "'");
  }
  return out;
}

// "GET /path HTTP/1.1\nHeader: v\n\nbody": Host and Content-Length are the client's to set.
RequestSpec parse_raw(const std::string& raw, const std::string& where) {
  RequestSpec r;
  std::string text = raw;
  auto start = text.find_first_not_of(" \t\r\n");
  if (start == std::string::npos) unsupported(where + ": empty raw request");
  text = text.substr(start);
  std::istringstream in(text);
  std::string line;
  std::getline(in, line);
  if (!line.empty() && line.back() == '\r') line.pop_back();
  std::istringstream first(line);
  std::string version;
  first >> r.method >> r.path >> version;
  if (r.method.empty() || r.path.empty() || !version.starts_with("HTTP/"))
    unsupported(where + ": the request line is not 'METHOD path HTTP/x'");
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) break;
    auto colon = line.find(':');
    if (colon == std::string::npos || colon == 0) unsupported(where + ": a header line without a name");
    auto name = trim(line.substr(0, colon));
    auto value = trim(line.substr(colon + 1));
    auto lname = lower(name);
    if (lname == "host" || lname == "content-length") continue;
    r.headers.emplace_back(std::move(name), std::move(value));
  }
  std::string body((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  while (!body.empty() && (body.back() == '\n' || body.back() == '\r')) body.pop_back();
  r.body = std::move(body);
  if (!r.path.starts_with("/") && !r.path.starts_with("{{")) unsupported(where + ": the raw path must start with /");
  if (r.path.starts_with("/")) r.path = "{{RootURL}}" + r.path;
  return r;
}

HttpBlock parse_block(const YAML::Node& b, const std::string& where) {
  if (!b.IsMap()) unsupported(where + " is not a map");
  check_keys(b,
             {"method", "path", "raw", "headers", "body", "matchers", "matchers-condition", "extractors",
              "stop-at-first-match", "redirects", "host-redirects", "max-redirects", "cookie-reuse", "max-size", "id",
              "name", "description"},
             where);
  HttpBlock out;
  std::vector<std::pair<std::string, std::string>> headers;
  if (b["headers"]) {
    if (!b["headers"].IsMap()) unsupported(where + ": headers is not a map");
    for (const auto& kv : b["headers"]) {
      auto name = kv.first.as<std::string>();
      auto value = scalar(kv.second, where + ".headers");
      if (name.empty() || name.find_first_of(":\r\n ") != std::string::npos ||
          value.find_first_of("\r\n") != std::string::npos)
        unsupported(std::string(where).append(": invalid header '").append(name).append("'"));
      check_variables(value, where + ".headers");
      headers.emplace_back(std::move(name), std::move(value));
    }
  }
  std::string body = b["body"] ? scalar(b["body"], where + ".body") : "";
  check_variables(body, where + ".body");
  if (b["path"] && b["raw"]) unsupported(where + ": both path and raw");
  if (b["path"]) {
    std::string method = b["method"] ? scalar(b["method"], where + ".method") : "GET";
    if (method.empty() || method.size() > 16 ||
        !std::all_of(method.begin(), method.end(), [](char c) { return c >= 'A' && c <= 'Z'; }))
      unsupported(where + ": invalid method '" + method + "'");
    for (auto& p : texts(b["path"], where + ".path")) {
      check_variables(p, where + ".path");
      if (!p.starts_with("{{")) unsupported(where + ": a path must start with a variable such as {{BaseURL}}");
      out.requests.push_back({method, std::move(p), headers, body});
    }
  } else if (b["raw"]) {
    if (b["method"]) unsupported(where + ": method beside raw");
    for (const auto& raw : texts(b["raw"], where + ".raw")) {
      check_variables(raw, where + ".raw");
      auto r = parse_raw(raw, where + ".raw");
      for (const auto& h : headers) r.headers.push_back(h);
      out.requests.push_back(std::move(r));
    }
  }
  if (out.requests.empty()) unsupported(where + ": no request (path or raw)");
  if (b["matchers-condition"]) {
    auto c = scalar(b["matchers-condition"], where + ".matchers-condition");
    if (c != "and" && c != "or") unsupported(where + ": matchers-condition must be and or or");
    out.matchers_all = c == "and";
  }
  if (b["matchers"]) {
    if (!b["matchers"].IsSequence()) unsupported(where + ": matchers is not a list");
    if (b["matchers"].size() > lim::kMatchersPerBlock) unsupported(where + ": too many matchers");
    std::size_t i = 0;
    for (const auto& m : b["matchers"])
      out.matchers.push_back(parse_matcher(m, where + ".matchers[" + std::to_string(i++) + "]"));
  }
  if (b["extractors"]) {
    if (!b["extractors"].IsSequence()) unsupported(where + ": extractors is not a list");
    if (b["extractors"].size() > lim::kMatchersPerBlock) unsupported(where + ": too many extractors");
    std::size_t i = 0;
    for (const auto& x : b["extractors"])
      out.extractors.push_back(parse_extractor(x, where + ".extractors[" + std::to_string(i++) + "]"));
  }
  if (out.matchers.empty() && out.extractors.empty()) unsupported(where + ": neither matchers nor extractors");
  if (b["stop-at-first-match"])
    out.stop_at_first_match = boolean(b["stop-at-first-match"], where + ".stop-at-first-match");
  bool follow = (b["redirects"] && boolean(b["redirects"], where + ".redirects")) ||
                (b["host-redirects"] && boolean(b["host-redirects"], where + ".host-redirects"));
  if (follow)
    out.max_redirects = b["max-redirects"]
                            ? static_cast<int>(integer(b["max-redirects"], where + ".max-redirects", 0, 1000))
                            : lim::kRedirects;
  out.max_redirects = std::min(out.max_redirects, lim::kRedirects);
  return out;
}

int cwe_of(const YAML::Node& classification) {
  if (!classification || !classification.IsMap() || !classification["cwe-id"]) return 0;
  for (const auto& c : texts(classification["cwe-id"], "info.classification.cwe-id")) {
    auto l = lower(trim(c));
    if (!l.starts_with("cwe-")) continue;
    try {
      std::size_t used = 0;
      int v = std::stoi(l.substr(4), &used);
      if (used == l.size() - 4 && v > 0) return v;
    } catch (...) {
    }
  }
  return 0;
}

// OWASP Top 10 2021 from the tags, the most specific first; the CWE when the tags say nothing.
std::string owasp_of(const std::vector<std::string>& tags, int cwe) {
  std::set<std::string> t;
  for (const auto& s : tags) t.insert(lower(trim(s)));
  auto any = [&](std::initializer_list<const char*> names) {
    return std::any_of(names.begin(), names.end(), [&](const char* n) { return t.contains(n); });
  };
  if (any({"cve", "outdated", "eol"})) return "A06:2021";
  if (any({"ssrf"})) return "A10:2021";
  if (any({"sqli", "xss", "injection", "rce", "ssti", "cmdi", "crlf"})) return "A03:2021";
  if (any({"lfi", "traversal", "idor", "unauth", "auth-bypass", "listing"})) return "A01:2021";
  if (any({"default-login", "weak-auth"})) return "A07:2021";
  if (any({"exposure", "misconfig", "config", "panel", "debug", "install", "setup", "xxe", "disclosure", "backup"}))
    return "A05:2021";
  switch (cwe) {
    case 22:
    case 200:
    case 284:
    case 285:
    case 548: return "A01:2021";
    case 79:
    case 89:
    case 77:
    case 78:
    case 94: return "A03:2021";
    case 16:
    case 215:
    case 489:
    case 538:
    case 611: return "A05:2021";
    case 1035:
    case 1104: return "A06:2021";
    case 287:
    case 306:
    case 798:
    case 1392: return "A07:2021";
    case 918: return "A10:2021";
    default: return "";
  }
}

Template parse_checked(std::string_view yaml, const std::string& file);

}  // namespace

std::size_t Template::request_count() const {
  std::size_t n = 0;
  for (const auto& b : http) n += b.requests.size();
  return n;
}

Template parse_template(std::string_view yaml, const std::string& file) {
  if (yaml.size() > lim::kFileBytes) unsupported("file larger than 256 KiB");
  try {
    return parse_checked(yaml, file);
  } catch (const YAML::Exception& e) {  // a conversion the checks above did not foresee
    unsupported(std::string("unexpected YAML structure: ") + e.what());
  }
}

namespace {

Template parse_checked(std::string_view yaml, const std::string& file) {
  YAML::Node root;
  try {
    root = YAML::Load(std::string(yaml));
  } catch (const YAML::Exception& e) {
    unsupported(std::string("not valid YAML: ") + e.what());
  }
  if (!root.IsMap()) unsupported("not a template (the document is not a map)");
  Template t;
  t.file = file;
  for (const auto& kv : root) {
    auto key = kv.first.as<std::string>();
    if (listed(kOtherProtocols, key)) unsupported("unsupported protocol or feature '" + key + "'");
    if (key != "id" && key != "info" && key != "http" && key != "requests")
      unsupported("unsupported key '" + key + "'");
  }
  if (!root["id"]) unsupported("no id");
  t.id = scalar(root["id"], "id");
  static const re2::RE2 kId("^([a-zA-Z0-9]+[-_])*[a-zA-Z0-9]+$");
  if (t.id.size() > 200 || !re2::RE2::FullMatch(t.id, kId)) unsupported("invalid id '" + t.id.substr(0, 200) + "'");
  const auto& info = root["info"];
  if (!info || !info.IsMap()) unsupported("no info");
  if (!info["name"]) unsupported("no info.name");
  t.name = scalar(info["name"], "info.name");
  auto authors = texts(info["author"], "info.author");
  for (const auto& a : authors) t.author += (t.author.empty() ? "" : ", ") + a;
  if (!info["severity"]) unsupported("no info.severity");
  auto sev = audit::severity_from(lower(trim(scalar(info["severity"], "info.severity"))));
  if (!sev) unsupported("info.severity must be info, low, medium, high or critical");
  t.severity = *sev;
  if (info["description"]) t.description = trim(scalar(info["description"], "info.description"));
  if (info["remediation"]) t.remediation = trim(scalar(info["remediation"], "info.remediation"));
  t.references = texts(info["reference"], "info.reference");
  for (const auto& tag : texts(info["tags"], "info.tags")) {
    std::istringstream in(tag);
    std::string one;
    while (std::getline(in, one, ','))
      if (auto s = trim(one); !s.empty()) t.tags.push_back(s);
  }
  t.cwe = cwe_of(info["classification"]);
  t.owasp = owasp_of(t.tags, t.cwe);
  if (root["http"] && root["requests"]) unsupported("both http and requests");
  const auto& http = root["http"] ? root["http"] : root["requests"];
  if (!http || !http.IsSequence() || http.size() == 0) unsupported("no http requests");
  std::size_t i = 0;
  for (const auto& b : http) t.http.push_back(parse_block(b, "http[" + std::to_string(i++) + "]"));
  if (t.request_count() > lim::kRequestsPerTemplate)
    unsupported("more than " + std::to_string(lim::kRequestsPerTemplate) + " requests");
  return t;
}

}  // namespace

Library load_library(const std::vector<std::filesystem::path>& dirs) {
  namespace fs = std::filesystem;
  Library lib;
  std::set<std::string> ids;
  std::size_t files = 0;
  for (const auto& dir : dirs) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) {
      lib.skipped.push_back({dir.string(), "", "not a folder"});
      continue;
    }
    std::vector<fs::path> paths;
    for (fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
         !ec && it != end; it.increment(ec)) {
      auto ext = it->path().extension().string();
      if (it->is_regular_file(ec) && (ext == ".yaml" || ext == ".yml")) paths.push_back(it->path());
    }
    std::sort(paths.begin(), paths.end());
    for (const auto& p : paths) {
      auto name = p.lexically_relative(dir).string();
      if (++files > lim::kTemplates) {
        lib.skipped.push_back({name, "", "more than " + std::to_string(lim::kTemplates) + " template files"});
        continue;
      }
      auto size = fs::file_size(p, ec);
      if (ec || size > lim::kFileBytes) {
        lib.skipped.push_back({name, "", ec ? "cannot read the file" : "file larger than 256 KiB"});
        continue;
      }
      std::ifstream in(p, std::ios::binary);
      std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      try {
        auto t = parse_template(text, name);
        if (!ids.insert(t.id).second) {
          lib.skipped.push_back({name, t.id, "a template with this id is already loaded"});
          continue;
        }
        lib.loaded.push_back(std::move(t));
      } catch (const std::exception& e) {
        std::string id;
        try {
          auto root = YAML::Load(text);
          if (root.IsMap() && root["id"] && root["id"].IsScalar()) id = root["id"].as<std::string>().substr(0, 200);
        } catch (...) {
        }
        lib.skipped.push_back({name, id, e.what()});
      }
    }
  }
  return lib;
}

std::map<std::string, std::string> target_variables(const std::string& target) {
  auto u = boost::urls::parse_uri(target);
  if (!u) throw std::invalid_argument("templates: the target is not a URL");
  std::string scheme(u->scheme());
  std::string host(u->encoded_host_address());
  std::string port = u->has_port() ? std::string(u->port()) : (scheme == "https" ? "443" : "80");
  std::string hostname = u->has_port() ? host + ":" + port : host;
  std::string root = scheme + "://" + hostname;
  std::string path(u->encoded_path());
  if (path == "/") path.clear();
  std::string base = root + path;
  while (base.size() > root.size() && base.back() == '/') base.pop_back();
  return {{"BaseURL", base}, {"RootURL", root}, {"Hostname", hostname}, {"Host", host},
          {"Port", port},    {"Path", path},    {"Scheme", scheme}};
}

std::string expand(std::string_view text, const std::map<std::string, std::string>& vars) {
  std::string out;
  std::size_t at = 0;
  while (true) {
    auto open = text.find("{{", at);
    if (open == std::string_view::npos) break;
    auto close = text.find("}}", open + 2);
    if (close == std::string_view::npos) break;
    out.append(text.substr(at, open - at));
    auto name = trim(text.substr(open + 2, close - open - 2));
    auto it = vars.find(name);
    if (it == vars.end()) throw std::invalid_argument("unknown variable {{" + name + "}}");
    out += it->second;
    at = close + 2;
  }
  out.append(text.substr(at));
  return out;
}

}  // namespace dozor::scan::templates
