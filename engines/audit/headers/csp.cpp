#include "engines/audit/headers/csp.hpp"

#include <unicode/coll.h>
#include <unicode/locid.h>
#include <unicode/stringpiece.h>

#include <algorithm>
#include <boost/url/decode_view.hpp>
#include <boost/url/pct_string_view.hpp>
#include <stdexcept>

namespace dozor::audit::headers {
namespace {

constexpr std::size_t kShortestPolicy = 6;  // "img-src" minus one: shorter cannot be a policy

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::string trim(std::string_view v) {
  auto b = v.find_first_not_of(" \t\r\n\f\v");
  if (b == std::string_view::npos) return {};
  auto e = v.find_last_not_of(" \t\r\n\f\v");
  return std::string(v.substr(b, e - b + 1));
}

std::vector<std::string> split_ws(std::string_view s) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    std::size_t j = i;
    while (j < s.size() && !std::isspace(static_cast<unsigned char>(s[j]))) ++j;
    if (j > i) out.emplace_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

// Observatory sorts with Intl.Collator("en"): ICU's English collation, not byte order. The
// order decides which neighbours are compared, so it decides what survives.
bool collate_less(const std::string& a, const std::string& b) {
  thread_local std::unique_ptr<icu::Collator> collator = [] {
    UErrorCode status = U_ZERO_ERROR;
    std::unique_ptr<icu::Collator> c(icu::Collator::createInstance(icu::Locale::getEnglish(), status));
    if (U_FAILURE(status)) c.reset();
    return c;
  }();
  if (!collator) return a < b;
  UErrorCode status = U_ZERO_ERROR;
  auto r = collator->compareUTF8(icu::StringPiece(a.data(), static_cast<int32_t>(a.size())),
                                 icu::StringPiece(b.data(), static_cast<int32_t>(b.size())), status);
  if (U_FAILURE(status)) return a < b;
  return r == UCOL_LESS;
}

std::string decode_component(std::string_view piece) {
  auto pct = boost::urls::make_pct_string_view(piece);
  if (!pct) throw std::invalid_argument("malformed percent-encoding in a source");  // decodeURIComponent throws
  return pct->decode();
}

std::vector<std::string> split_slash(const std::string& s) {
  std::vector<std::string> out;
  std::size_t pos = 0;
  while (true) {
    auto slash = s.find('/', pos);
    out.push_back(s.substr(pos, slash == std::string::npos ? std::string::npos : slash - pos));
    if (slash == std::string::npos) break;
    pos = slash + 1;
  }
  return out;
}

// Observatory's pathPartMatch over two whole sources.
bool path_part_match(const std::string& a, const std::string& b) {
  if (a.empty()) return true;
  if (a == "/" && b.empty()) return true;
  bool exact = a.back() != '/';
  auto la = split_slash(a);
  auto lb = split_slash(b);
  if (la.size() > lb.size()) return false;
  if (exact && la.size() != lb.size()) return false;
  if (!exact) la.pop_back();
  for (std::size_t i = 0; i < la.size(); ++i)
    if (decode_component(la[i]) != decode_component(lb[i])) return false;
  return true;
}

struct Entry {
  std::string source;
  std::size_t index;
  bool keep;
};

}  // namespace

SourceSet Csp::get(const std::string& directive) const {
  auto it = directives.find(directive);
  return it == directives.end() ? nullptr : it->second;
}

Csp parse_csp(const std::vector<std::string>& policies) {
  std::vector<std::string> clean;
  for (const auto& p : policies) {
    std::string s;
    for (char c : p)
      if (c != '\r' && c != '\n') s.push_back(c);
    clean.push_back(trim(s));
  }
  Csp result;
  if (clean.empty()) return result;
  for (const auto& p : clean)
    if (p.size() < kShortestPolicy) throw std::invalid_argument("policy too short to be a policy");

  std::map<std::string, std::vector<std::shared_ptr<Entry>>> csp;
  for (std::size_t index = 0; index < clean.size(); ++index) {
    std::set<std::string> seen;
    std::size_t pos = 0;
    const std::string& policy = clean[index];
    while (pos <= policy.size()) {
      auto semi = policy.find(';', pos);
      auto tokens = split_ws(policy.substr(pos, semi == std::string::npos ? std::string::npos : semi - pos));
      pos = semi == std::string::npos ? policy.size() + 1 : semi + 1;
      if (tokens.empty()) continue;
      std::string directive = lower(tokens[0]);
      if (!seen.insert(directive).second) {
        if (directive == "report-uri" || directive == "report-to")
          result.duplicate_warnings.insert(directive);
        else
          throw std::invalid_argument("duplicate directive " + directive);
      }
      bool keep = index == 0;
      std::vector<std::shared_ptr<Entry>> values;
      for (std::size_t i = 1; i < tokens.size(); ++i)
        values.push_back(std::make_shared<Entry>(Entry{lower(trim(tokens[i])), index, keep}));
      if (tokens.size() == 1 && directive.size() >= 4 && directive.compare(directive.size() - 4, 4, "-src") == 0)
        values.push_back(std::make_shared<Entry>(Entry{"'none'", index, keep}));

      std::vector<std::shared_ptr<Entry>> combined;
      if (index > 0)
        if (auto it = csp.find(directive); it != csp.end()) combined = it->second;
      combined.insert(combined.end(), values.begin(), values.end());
      std::stable_sort(combined.begin(), combined.end(),
                       [](const auto& x, const auto& y) { return collate_less(x->source, y->source); });
      for (std::size_t i = 1; i < combined.size(); ++i) {
        auto& source = *combined[i];
        const auto& prev = *combined[i - 1];
        if (source.index == prev.index && source.source.rfind(prev.source, 0) == 0) source.keep = false;
        if (source.index != prev.index && path_part_match(prev.source, source.source)) source.keep = true;
      }
      std::vector<std::shared_ptr<Entry>> kept;
      for (const auto& e : combined)
        if (e->keep) kept.push_back(e);
      csp[directive] = kept;
      if (index == 0 && clean.size() > 1)
        for (auto& e : csp[directive]) e->keep = false;
    }
  }
  for (const auto& [directive, entries] : csp) {
    auto set = std::make_shared<std::set<std::string>>();
    for (const auto& e : entries) set->insert(e->source);
    if (set->empty()) set->insert("'none'");
    result.directives[directive] = set;
  }
  return result;
}

Csp parse_csp_meta(const std::vector<std::string>& policies) {
  Csp c = parse_csp(policies);
  for (const char* d : {"frame-ancestors", "report-uri", "sandbox"}) c.directives.erase(d);
  return c;
}

}  // namespace dozor::audit::headers
