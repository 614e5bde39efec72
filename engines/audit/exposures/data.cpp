#include "engines/audit/exposures/data.hpp"

#include <re2/re2.h>

#include <set>
#include <stdexcept>

#include "engines/audit/data_file.hpp"
#include "engines/limits.hpp"

namespace dozor::audit::exposures {
namespace {

[[noreturn]] void fail(const std::string& what) { throw std::runtime_error("exposure probes: " + what); }

const boost::json::value* member(const boost::json::object& o, const char* key) { return o.if_contains(key); }

std::string string_of(const boost::json::object& o, const char* key, const std::string& where, bool required = true) {
  const auto* v = member(o, key);
  if (!v) {
    if (required) fail(where + " lacks '" + key + "'");
    return {};
  }
  if (!v->is_string() || v->as_string().empty()) fail(where + ": '" + key + "' must be a non-empty string");
  return std::string(v->as_string());
}

Text text_of(const boost::json::object& o, const char* key, const std::string& where) {
  const auto* v = member(o, key);
  if (!v || !v->is_object()) fail(where + ": '" + key + "' must be an object {\"en\", \"ru\"}");
  std::string at = where + " " + key;
  return {string_of(v->as_object(), "en", at), string_of(v->as_object(), "ru", at)};
}

Regex compile(const std::string& pattern, const std::string& where) {
  RE2::Options opt;
  opt.set_log_errors(false);
  opt.set_max_mem(std::int64_t{8} << 20);
  auto re = std::make_shared<const re2::RE2>(pattern, opt);
  if (!re->ok()) fail(where + ": " + re->error());
  return re;
}

std::vector<Regex> regexes(const boost::json::object& match, const char* key, const std::string& where) {
  std::vector<Regex> out;
  const auto* v = member(match, key);
  if (!v) return out;
  if (!v->is_array() || v->as_array().empty()) fail(where + ": '" + key + "' must be a non-empty array");
  for (const auto& item : v->as_array()) {
    if (!item.is_string() || item.as_string().empty()) fail(where + ": '" + key + "' holds a non-string or empty item");
    out.push_back(compile(std::string(item.as_string()), where + " " + key));
  }
  return out;
}

std::string bytes_of_hex(const std::string& hex, const std::string& where) {
  if (hex.empty() || hex.size() % 2 != 0) fail(where + ": magic '" + hex + "' must be an even number of hex digits");
  std::string out;
  auto digit = [&](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    std::string what = where;
    what.append(": magic '").append(hex).append("' is not hex");
    fail(what);
  };
  for (std::size_t i = 0; i < hex.size(); i += 2) {
    out.push_back(static_cast<char>(digit(hex[i]) * 16 + digit(hex[i + 1])));
  }
  return out;
}

std::size_t size_of(const boost::json::object& match, const char* key, std::size_t fallback, const std::string& where) {
  const auto* v = member(match, key);
  if (!v) return fallback;
  if (!v->is_int64() || v->as_int64() < 0 || v->as_int64() > static_cast<std::int64_t>(limits::kExposureBodyBytes))
    fail(where + ": '" + key + "' must be an integer 0.." + std::to_string(limits::kExposureBodyBytes));
  return static_cast<std::size_t>(v->as_int64());
}

bool flag(const boost::json::object& o, const char* key, const std::string& where) {
  const auto* v = member(o, key);
  if (!v) return false;
  if (!v->is_bool()) fail(where + ": '" + key + "' must be true or false");
  return v->as_bool();
}

bool valid_id(const std::string& id) {
  for (char c : id)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
  return !id.empty();
}

bool valid_path(const std::string& path) {
  if (path.empty() || path[0] != '/' || path.find("//") != std::string::npos) return false;
  for (char c : path)
    if (static_cast<unsigned char>(c) <= 0x20 || static_cast<unsigned char>(c) >= 0x7f || c == '?' || c == '#')
      return false;
  return true;
}

bool valid_owasp(const std::string& s) {
  static const re2::RE2 re("A(?:0[1-9]|10):2021");
  return re2::RE2::FullMatch(s, re);
}

Probe probe_of(const boost::json::value& v, std::size_t index) {
  const auto* o = v.if_object();
  std::string where = "probe #" + std::to_string(index + 1);
  if (!o) fail(where + " is not an object");
  Probe p;
  p.id = string_of(*o, "id", where);
  if (!valid_id(p.id)) fail(where + ": id '" + p.id + "' must be [a-z0-9-]");
  where = "probe " + p.id;
  p.path = string_of(*o, "path", where);
  if (!valid_path(p.path)) fail(where + ": path must be an absolute path of visible ASCII without ?, # or //");
  p.group = string_of(*o, "group", where, false);
  if (!p.group.empty() && !valid_id(p.group)) fail(where + ": group must be [a-z0-9-]");
  auto severity = severity_from(string_of(*o, "severity", where));
  if (!severity) fail(where + ": severity must be info, low, medium, high or critical");
  p.severity = *severity;
  p.confidence = string_of(*o, "confidence", where);
  if (p.confidence != "tentative" && p.confidence != "firm" && p.confidence != "certain")
    fail(where + ": confidence must be tentative, firm or certain");
  p.owasp = string_of(*o, "owasp", where);
  if (!valid_owasp(p.owasp)) fail(where + ": owasp must be an OWASP Top 10 2021 category (A01:2021 … A10:2021)");
  const auto* cwe = member(*o, "cwe");
  if (!cwe || !cwe->is_int64() || cwe->as_int64() < 0 || cwe->as_int64() > 100000)
    fail(where + ": cwe must be a CWE number (0 when none fits)");
  p.cwe = static_cast<int>(cwe->as_int64());
  p.absent = flag(*o, "absent", where);
  p.redact = flag(*o, "redact", where);
  p.title = text_of(*o, "title", where);
  p.description = text_of(*o, "description", where);
  p.recommendation = text_of(*o, "recommendation", where);

  const auto* m = member(*o, "match");
  if (!m || !m->is_object()) fail(where + ": 'match' must be an object");
  const auto& match = m->as_object();
  for (const auto& kv : match) {
    static const std::set<std::string> known{"status",           "body",     "magic",   "not_body", "content_type",
                                             "not_content_type", "min_size", "max_size"};
    if (!known.count(std::string(kv.key()))) fail(where + ": unknown match key '" + std::string(kv.key()) + "'");
  }
  if (const auto* s = member(match, "status")) {
    if (!s->is_array() || s->as_array().empty()) fail(where + ": 'status' must be a non-empty array");
    p.statuses.clear();
    for (const auto& x : s->as_array()) {
      if (!x.is_int64() || x.as_int64() < 100 || x.as_int64() > 599) fail(where + ": a status must be 100..599");
      p.statuses.push_back(static_cast<int>(x.as_int64()));
    }
  }
  p.body = regexes(match, "body", where);
  p.not_body = regexes(match, "not_body", where);
  if (const auto* mg = member(match, "magic")) {
    if (!mg->is_array() || mg->as_array().empty()) fail(where + ": 'magic' must be a non-empty array");
    for (const auto& x : mg->as_array()) {
      if (!x.is_string()) fail(where + ": magic must be hex strings");
      p.magic.push_back(bytes_of_hex(std::string(x.as_string()), where));
    }
  }
  // Status alone is never a finding: a site that answers 200 to everything would light up every probe.
  if (p.body.empty() && p.magic.empty()) fail(where + ": needs a content check ('body' or 'magic')");
  if (auto ct = string_of(match, "content_type", where, false); !ct.empty()) p.content_type = compile(ct, where);
  if (auto ct = string_of(match, "not_content_type", where, false); !ct.empty())
    p.not_content_type = compile(ct, where);
  p.min_size = size_of(match, "min_size", 1, where);
  p.max_size = size_of(match, "max_size", 0, where);
  if (p.max_size != 0 && p.max_size < p.min_size) fail(where + ": max_size is below min_size");
  return p;
}

}  // namespace

Data Data::parse(std::string_view json) {
  const auto root = parse_data_object(json, "exposure probes");
  const auto* o = &root;
  Data d;
  d.version = string_of(*o, "version", "the file");
  const auto* probes = member(*o, "probes");
  if (!probes || !probes->is_array() || probes->as_array().empty()) fail("'probes' must be a non-empty array");
  if (probes->as_array().size() > limits::kExposureProbes)
    fail("more than " + std::to_string(limits::kExposureProbes) + " probes (limits::kExposureProbes)");
  std::set<std::string> ids, paths;
  for (std::size_t i = 0; i < probes->as_array().size(); ++i) {
    auto p = probe_of(probes->as_array()[i], i);
    if (!ids.insert(p.id).second) fail("duplicate id '" + p.id + "'");
    if (!paths.insert(p.path).second) fail("duplicate path '" + p.path + "'");
    d.probes.push_back(std::move(p));
  }
  return d;
}

Data Data::load(const std::string& audit_data_dir) {
  std::string path = audit_data_dir + "/" + kDataFile;
  return parse(read_data_file(path, "exposure probes"));
}

}  // namespace dozor::audit::exposures
