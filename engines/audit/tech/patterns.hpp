#pragma once
// Fingerprint patterns (docs/audit.md "Technologies"): an RE2 regex (case-insensitive, linear
// time on hostile pages), an optional version template ("\\1", "\\1.\\2") filled from its
// capture groups, and a confidence. A PatternSet matches many patterns against one text at
// once: RE2::Set names the candidates, then only those run their own regex for the version
// and the matched excerpt.
#include <boost/json/value.hpp>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace re2 {
class RE2;
}

namespace dozor::audit::tech {

struct Pattern {
  std::size_t owner = 0;  // index of the technology (or library) it belongs to
  std::string source;     // html | script_src | scripts | url | robots | header | cookie | meta | probe …
  std::string key;        // header, cookie or meta name; probe path
  std::string regex;
  std::shared_ptr<const re2::RE2> re;
  std::string version;  // template; empty: the pattern says nothing about the version
  int confidence = 100;
};

struct Match {
  std::string version;  // filled template; empty when none or implausible
  std::string excerpt;  // what matched, at most limits::tech::kMatchExcerptChars
};

// Compiles a pattern; throws std::runtime_error naming `where` when RE2 refuses it.
std::shared_ptr<const re2::RE2> compile_pattern(const std::string& regex, const std::string& where);

// From data: "regex" or {"regex": "...", "version": "\\1", "confidence": 50}.
Pattern parse_pattern(const boost::json::value& v, std::size_t owner, const std::string& source,
                      const std::string& where);

// Runs one pattern; nullopt-like: returns false when it does not match.
bool match_pattern(const Pattern& p, std::string_view text, Match& out);

class PatternSet {
 public:
  PatternSet();
  ~PatternSet();
  PatternSet(PatternSet&&) noexcept;
  PatternSet& operator=(PatternSet&&) noexcept;

  void add(Pattern p);
  void compile();  // after the last add; throws when RE2 cannot build the set
  std::size_t size() const { return patterns_.size(); }
  const std::vector<Pattern>& patterns() const { return patterns_; }

  using Hit = std::function<void(const Pattern&, const Match&)>;
  void match(std::string_view text, const Hit& hit) const;

 private:
  std::vector<Pattern> patterns_;
  struct Compiled;
  std::unique_ptr<Compiled> set_;
};

}  // namespace dozor::audit::tech
