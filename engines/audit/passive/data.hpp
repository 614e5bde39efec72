#pragma once
// The passive rules' word and pattern lists (share/audit/passive/rules.json, docs/audit.md
// "Passive rules"): data, not code, so they are versioned and extended without a rebuild. Loaded
// once at start; a file that does not validate stops the start (and fails the unit test).
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace re2 {
class RE2;
}

namespace dozor::audit::passive {

struct ErrorPattern {
  std::string id;
  std::string kind;  // error | debug
  std::string title;
  std::shared_ptr<const re2::RE2> re;
};

struct Data {
  std::string version;
  std::vector<std::string> csrf_field_names;       // exact, lower case
  std::vector<std::string> csrf_field_substrings;  // lower case
  std::vector<std::string> csrf_meta_names;        // <meta name=…> that carries a token for scripts
  std::vector<std::string> session_cookie_substrings;
  std::vector<std::string> version_headers;  // lower case header names
  std::vector<ErrorPattern> error_patterns;
  std::shared_ptr<const re2::RE2> comment_suspicious;  // built from the word lists
  std::shared_ptr<const re2::RE2> comment_credentials;

  // Throws std::runtime_error naming the problem (bad JSON, a missing list, a regex RE2 refuses).
  static Data parse(std::string_view json);
  static Data load(const std::string& audit_data_dir);  // <dir>/passive/rules.json
};

inline constexpr const char* kDataFile = "passive/rules.json";

}  // namespace dozor::audit::passive
