#pragma once
// Database error signatures of the error-based SQL injection check (share/audit/owasp/sql_errors.json,
// docs/scan.md "OWASP scan"): data, not code; loaded once with the audit data, validated at load.
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace re2 {
class RE2;
}

namespace dozor::owasp {

struct SqlErrorMatch {
  std::string dbms;
  std::string matched;  // the text the pattern matched
  std::size_t offset = 0;
};

class SqlErrors {
 public:
  struct Dbms {
    std::string name;
    std::vector<std::shared_ptr<const re2::RE2>> patterns;
  };

  // Throws std::runtime_error naming the problem (bad JSON, format, empty lists, a regex RE2 refuses).
  static SqlErrors parse(std::string_view json);
  static SqlErrors load(const std::string& audit_data_dir);  // <dir>/owasp/sql_errors.json

  // The first signature found in `body`, in file order.
  std::optional<SqlErrorMatch> match(std::string_view body) const;

  const std::string& version() const { return version_; }
  const std::vector<Dbms>& dbms() const { return dbms_; }

 private:
  std::string version_;
  std::vector<Dbms> dbms_;
};

inline constexpr const char* kSqlErrorsFile = "owasp/sql_errors.json";

}  // namespace dozor::owasp
