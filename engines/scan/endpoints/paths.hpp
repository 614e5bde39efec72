#pragma once
// The data of endpoint discovery (share/audit/endpoints/paths.json, docs/scan.md "Endpoint
// discovery"): the well-known locations of OpenAPI/Swagger documents and a bounded wordlist of
// common paths. Loaded once with the audit data, validated at load.
#include <string>
#include <string_view>
#include <vector>

namespace dozor::endpoints {

class Paths {
 public:
  // Throws std::runtime_error naming the problem (bad JSON, format, a path that is not "/…",
  // has spaces or "..", a duplicate, too many paths).
  static Paths parse(std::string_view json);
  static Paths load(const std::string& audit_data_dir);  // <dir>/endpoints/paths.json

  const std::string& version() const { return version_; }
  const std::vector<std::string>& documents() const { return documents_; }
  const std::vector<std::string>& wordlist() const { return wordlist_; }

 private:
  std::string version_;
  std::vector<std::string> documents_;
  std::vector<std::string> wordlist_;
};

inline constexpr const char* kPathsFile = "endpoints/paths.json";

}  // namespace dozor::endpoints
