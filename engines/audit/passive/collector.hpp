#pragma once
// Passive findings, deduplicated: one finding per rule, each occurrence (a cookie name, a script
// URL, a header value …) kept once as evidence, at most limits::kPassiveEvidencePerFinding of them.
#include <map>
#include <set>
#include <string>
#include <vector>

#include "engines/audit/finding.hpp"

namespace dozor::audit::passive {

// What a rule says about every finding it makes.
struct Rule {
  const char* check;
  const char* title;
  Severity severity;
  const char* confidence;
  const char* owasp;
  int cwe;
  const char* description;
  const char* recommendation;
};

class Collector {
 public:
  explicit Collector(std::size_t max_evidence);

  // `key` names the occurrence: the same key twice (the same cookie on every page) is one.
  void add(const Rule& rule, const std::string& key, Evidence evidence);

  // Worst first, then in the order the rules first fired.
  std::vector<Finding> take();

 private:
  struct Entry {
    Finding finding;
    std::set<std::string> keys;
    std::size_t order = 0;
  };
  std::size_t max_evidence_;
  std::map<std::string, Entry> entries_;
};

}  // namespace dozor::audit::passive
