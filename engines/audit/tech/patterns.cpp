#include "engines/audit/tech/patterns.hpp"

#include <re2/re2.h>
#include <re2/set.h>

#include <algorithm>
#include <stdexcept>

#include "engines/audit/tech/version.hpp"
#include "engines/limits.hpp"
#include "engines/text/utf8.hpp"

namespace dozor::audit::tech {
namespace {

constexpr std::int64_t kRegexMemory = std::int64_t{8} << 20;
constexpr std::int64_t kSetMemory = std::int64_t{64} << 20;
constexpr int kMaxGroups = 9;

RE2::Options options() {
  RE2::Options o;
  o.set_log_errors(false);
  o.set_case_sensitive(false);
  o.set_max_mem(kRegexMemory);
  return o;
}

// "\\1" … "\\9" replaced by the groups; any other text kept.
std::string fill(const std::string& tmpl, const re2::StringPiece* groups, int n) {
  std::string out;
  for (std::size_t i = 0; i < tmpl.size(); ++i) {
    if (tmpl[i] == '\\' && i + 1 < tmpl.size() && tmpl[i + 1] >= '1' && tmpl[i + 1] <= '9') {
      int g = tmpl[i + 1] - '0';
      if (g <= n && groups[g].data()) out.append(groups[g].data(), groups[g].size());
      ++i;
    } else {
      out.push_back(tmpl[i]);
    }
  }
  return out;
}

}  // namespace

std::shared_ptr<const re2::RE2> compile_pattern(const std::string& regex, const std::string& where) {
  auto re = std::make_shared<const re2::RE2>(regex, options());
  if (!re->ok()) throw std::runtime_error(where + ": " + re->error());
  if (re->NumberOfCapturingGroups() > kMaxGroups) throw std::runtime_error(where + ": more than 9 groups");
  return re;
}

Pattern parse_pattern(const boost::json::value& v, std::size_t owner, const std::string& source,
                      const std::string& where) {
  Pattern p;
  p.owner = owner;
  p.source = source;
  if (v.is_string()) {
    p.regex = std::string(v.as_string());
  } else if (const auto* o = v.if_object()) {
    const auto* re = o->if_contains("regex");
    if (!re || !re->is_string()) throw std::runtime_error(where + ": a pattern object needs \"regex\"");
    p.regex = std::string(re->as_string());
    if (const auto* ver = o->if_contains("version")) {
      if (!ver->is_string()) throw std::runtime_error(where + ": \"version\" must be a string");
      p.version = std::string(ver->as_string());
    }
    if (const auto* c = o->if_contains("confidence")) {
      if (!c->is_int64() || c->as_int64() < 1 || c->as_int64() > 100)
        throw std::runtime_error(where + ": \"confidence\" must be 1..100");
      p.confidence = static_cast<int>(c->as_int64());
    }
    for (const auto& kv : *o)
      if (kv.key() != "regex" && kv.key() != "version" && kv.key() != "confidence")
        throw std::runtime_error(where + ": unknown pattern field \"" + std::string(kv.key()) + "\"");
  } else {
    throw std::runtime_error(where + ": a pattern is a string or an object");
  }
  p.re = compile_pattern(p.regex, where);
  for (std::size_t i = 0; i + 1 < p.version.size(); ++i)
    if (p.version[i] == '\\' && p.version[i + 1] >= '1' && p.version[i + 1] <= '9' &&
        p.version[i + 1] - '0' > p.re->NumberOfCapturingGroups())
      throw std::runtime_error(where + ": version template names a group the regex does not have");
  return p;
}

bool match_pattern(const Pattern& p, std::string_view text, Match& out) {
  re2::StringPiece groups[kMaxGroups + 1];
  int n = std::min(p.re->NumberOfCapturingGroups(), kMaxGroups);
  re2::StringPiece input(text.data(), text.size());
  if (!p.re->Match(input, 0, input.size(), RE2::UNANCHORED, groups, n + 1)) return false;
  out.excerpt = text::utf8_prefix(std::string(groups[0].data(), groups[0].size()), limits::tech::kMatchExcerptChars);
  out.version.clear();
  if (!p.version.empty()) {
    auto v = fill(p.version, groups, n);
    if (plausible_version(v)) out.version = std::move(v);
  }
  return true;
}

struct PatternSet::Compiled {
  explicit Compiled(const RE2::Options& o) : set(o, RE2::UNANCHORED) {}
  re2::RE2::Set set;
};

PatternSet::PatternSet() = default;
PatternSet::~PatternSet() = default;
PatternSet::PatternSet(PatternSet&&) noexcept = default;
PatternSet& PatternSet::operator=(PatternSet&&) noexcept = default;

void PatternSet::add(Pattern p) { patterns_.push_back(std::move(p)); }

void PatternSet::compile() {
  if (patterns_.empty()) return;
  RE2::Options o = options();
  o.set_max_mem(kSetMemory);
  auto c = std::make_unique<Compiled>(o);
  for (const auto& p : patterns_) {
    std::string error;
    if (c->set.Add(p.regex, &error) < 0) throw std::runtime_error("pattern set: " + p.regex + ": " + error);
  }
  if (!c->set.Compile()) throw std::runtime_error("pattern set: RE2 ran out of memory compiling the set");
  set_ = std::move(c);
}

void PatternSet::match(std::string_view text, const Hit& hit) const {
  if (!set_) return;
  std::vector<int> candidates;
  re2::RE2::Set::ErrorInfo info{};
  bool any = set_->set.Match(re2::StringPiece(text.data(), text.size()), &candidates, &info);
  if (!any && info.kind != re2::RE2::Set::kNoError) {
    // The set's DFA gave up (a huge, hostile text): every pattern on its own, still linear.
    candidates.clear();
    for (std::size_t i = 0; i < patterns_.size(); ++i) candidates.push_back(static_cast<int>(i));
  }
  std::sort(candidates.begin(), candidates.end());
  for (int i : candidates) {
    const Pattern& p = patterns_[static_cast<std::size_t>(i)];
    Match m;
    if (match_pattern(p, text, m)) hit(p, m);
  }
}

}  // namespace dozor::audit::tech
