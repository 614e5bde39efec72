#pragma once
// Content-Security-Policy parsing as MDN HTTP Observatory (scoring algorithm 4) reads it, so
// our grade equals theirs: directives are case-insensitive, sources lower-cased, a source list
// left empty means 'none', a directive repeated inside one policy makes the policy invalid
// (report-uri and report-to excepted: a warning), a source made superfluous by a shorter one of
// the same policy is dropped, and several policies keep only what they share.
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace dozor::audit::headers {

// Directive → its sources. Sources are shared pointers because the scoring aliases them:
// script-src falling back to default-src is the same list, and editing one edits both.
using SourceSet = std::shared_ptr<std::set<std::string>>;

struct Csp {
  std::map<std::string, SourceSet> directives;
  std::set<std::string> duplicate_warnings;  // report-uri / report-to given twice in one policy

  SourceSet get(const std::string& directive) const;  // nullptr when absent
  bool empty() const { return directives.empty(); }
};

// Throws std::invalid_argument for a policy Observatory calls invalid.
Csp parse_csp(const std::vector<std::string>& policies);
// The same for <meta http-equiv> policies, where frame-ancestors, report-uri and sandbox do not apply.
Csp parse_csp_meta(const std::vector<std::string>& policies);

}  // namespace dozor::audit::headers
