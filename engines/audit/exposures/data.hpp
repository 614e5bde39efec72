#pragma once
// The exposure probes (share/audit/exposures/exposures.json, docs/audit.md "Exposures"): which
// path to GET and what its answer must contain to prove the exposure. Data, not code: versioned
// and extended without a rebuild, loaded once at start; a file that does not validate stops the
// start (and fails the unit test).
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engines/audit/finding.hpp"

namespace re2 {
class RE2;
}

namespace dozor::audit::exposures {

using Regex = std::shared_ptr<const re2::RE2>;

struct Text {
  std::string en;
  std::string ru;
};

struct Probe {
  std::string id;     // unique, [a-z0-9-]
  std::string path;   // absolute path at the target's origin: "/.git/HEAD"
  std::string group;  // probes reported as one finding; empty = its own
  Severity severity = Severity::Info;
  std::string confidence;  // tentative | firm | certain
  std::string owasp;       // "A05:2021"
  int cwe = 0;
  std::vector<int> statuses{200};  // answers that can prove it
  std::vector<Regex> body;         // any of them proves it …
  std::vector<std::string> magic;  // … or the body starting with any of these bytes
  std::vector<Regex> not_body;     // none of them may match
  Regex content_type;              // must match the Content-Type when set
  Regex not_content_type;          // must not match it when set
  std::size_t min_size = 1;
  std::size_t max_size = 0;  // 0: no bound
  bool absent = false;       // the finding is the content missing (security.txt)
  bool redact = false;       // mask values in the evidence (secrets)
  Text title, description, recommendation;

  std::string check() const { return "exposure-" + (group.empty() ? id : group); }
};

struct Data {
  std::string version;
  std::vector<Probe> probes;

  // Throws std::runtime_error naming the problem (bad JSON, a missing field, a regex RE2 refuses,
  // a duplicate id, a probe without a content check …).
  static Data parse(std::string_view json);
  static Data load(const std::string& audit_data_dir);  // <dir>/exposures/exposures.json
};

inline constexpr const char* kDataFile = "exposures/exposures.json";

}  // namespace dozor::audit::exposures
