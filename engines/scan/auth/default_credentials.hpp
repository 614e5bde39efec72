#pragma once
// The default credentials the auth scan tries on a panel that technology detection identified
// (share/audit/auth/default-credentials.json, docs/scan.md "Auth scan"): per technology slug,
// where its login form lives and a few factory credential pairs. Loaded once with the audit
// data, validated at load.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dozor::authscan {

struct Panel {
  std::string technology;                                        // a slug of share/audit/tech
  std::string name;                                              // for people
  std::vector<std::string> login_paths;                          // "/wp-login.php"
  std::vector<std::pair<std::string, std::string>> credentials;  // at most limits::auth::kDefaultTriesPerPanel
};

class DefaultCredentials {
 public:
  // Throws std::runtime_error naming the problem (bad JSON, a missing field, a path that is not
  // "/…", too many pairs or panels, a technology listed twice).
  static DefaultCredentials parse(std::string_view json);
  static DefaultCredentials load(const std::string& audit_data_dir);  // <dir>/auth/default-credentials.json

  const std::string& version() const { return version_; }
  const std::vector<Panel>& panels() const { return panels_; }
  const Panel* find(std::string_view technology) const;

 private:
  std::string version_;
  std::vector<Panel> panels_;
};

inline constexpr const char* kDefaultCredentialsFile = "auth/default-credentials.json";

}  // namespace dozor::authscan
