#include "engines/audit/passive/data.hpp"

#include <re2/re2.h>

#include <stdexcept>

#include "engines/audit/data_file.hpp"

namespace dozor::audit::passive {
namespace {

std::vector<std::string> strings(const boost::json::object& o, const char* key) {
  const auto* v = o.if_contains(key);
  if (!v || !v->is_array() || v->as_array().empty())
    throw std::runtime_error(std::string("passive rules: '") + key + "' must be a non-empty array");
  std::vector<std::string> out;
  for (const auto& item : v->as_array()) {
    if (!item.is_string() || item.as_string().empty())
      throw std::runtime_error(std::string("passive rules: '") + key + "' holds a non-string or empty item");
    out.emplace_back(item.as_string());
  }
  return out;
}

std::shared_ptr<const re2::RE2> compile(const std::string& pattern, const std::string& what) {
  RE2::Options opt;
  opt.set_log_errors(false);
  opt.set_max_mem(std::int64_t{8} << 20);
  auto re = std::make_shared<const re2::RE2>(pattern, opt);
  if (!re->ok()) throw std::runtime_error("passive rules: " + what + ": " + re->error());
  return re;
}

bool is_ascii_word(const std::string& w) {
  for (char c : w)
    if (static_cast<unsigned char>(c) >= 0x80) return false;
  return true;
}

// ASCII words match as whole words (\b is ASCII in RE2); Cyrillic stems match anywhere, which
// covers their word forms ("пароль", "пароля", "паролем" share "парол").
std::shared_ptr<const re2::RE2> word_set(const std::vector<std::string>& words, const std::string& what) {
  std::string pattern = "(?i)(";
  bool first = true;
  for (const auto& w : words) {
    if (!first) pattern += '|';
    first = false;
    std::string quoted = RE2::QuoteMeta(w);
    pattern += is_ascii_word(w) ? "\\b" + quoted + "\\b" : quoted;
  }
  pattern += ")";
  return compile(pattern, what);
}

}  // namespace

Data Data::parse(std::string_view json) {
  const auto o = parse_data_object(json, "passive rules");
  Data d;
  if (const auto* v = o.if_contains("version"); v && v->is_string()) d.version = std::string(v->as_string());
  d.csrf_field_names = strings(o, "csrf_field_names");
  d.csrf_field_substrings = strings(o, "csrf_field_substrings");
  d.csrf_meta_names = strings(o, "csrf_meta_names");
  d.session_cookie_substrings = strings(o, "session_cookie_substrings");
  d.version_headers = strings(o, "version_headers");
  d.comment_suspicious = word_set(strings(o, "comment_suspicious_words"), "comment_suspicious_words");
  d.comment_credentials = word_set(strings(o, "comment_credential_words"), "comment_credential_words");
  const auto* patterns = o.if_contains("error_patterns");
  if (!patterns || !patterns->is_array() || patterns->as_array().empty())
    throw std::runtime_error("passive rules: 'error_patterns' must be a non-empty array");
  for (const auto& p : patterns->as_array()) {
    const auto* po = p.if_object();
    auto field = [&](const char* key) {
      const auto* v = po ? po->if_contains(key) : nullptr;
      if (!v || !v->is_string() || v->as_string().empty())
        throw std::runtime_error(std::string("passive rules: an error pattern lacks '") + key + "'");
      return std::string(v->as_string());
    };
    ErrorPattern ep;
    ep.id = field("id");
    ep.kind = field("kind");
    if (ep.kind != "error" && ep.kind != "debug")
      throw std::runtime_error("passive rules: pattern " + ep.id + ": kind must be error or debug");
    ep.title = field("title");
    ep.re = compile(field("regex"), "pattern " + ep.id);
    d.error_patterns.push_back(std::move(ep));
  }
  return d;
}

Data Data::load(const std::string& audit_data_dir) {
  std::string path = audit_data_dir + "/" + kDataFile;
  return parse(read_data_file(path, "passive rules"));
}

}  // namespace dozor::audit::passive
