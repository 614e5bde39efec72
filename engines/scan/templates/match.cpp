#include "engines/scan/templates/match.hpp"

#include <re2/re2.h>

#include <algorithm>
#include <cctype>

#include "engines/limits.hpp"
#include "engines/text/utf8.hpp"

namespace dozor::scan::templates {
namespace {

namespace lim = limits::templates;

std::string part_text(Part p, const Response& r) {
  switch (p) {
    case Part::Body: return r.body;
    case Part::Header: return r.headers;
    case Part::All: return r.all();
  }
  return r.body;
}

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string bounded(std::string_view s) { return text::utf8_prefix(text::to_valid_utf8(s), lim::kExcerptBytes); }

// Any (all=false) or every (all=true) of `n` tests; `hit` is the first that passed.
template <typename Test>
bool combine(std::size_t n, bool all, Test test, std::size_t& hit) {
  bool any = false;
  for (std::size_t i = 0; i < n; ++i) {
    bool ok = test(i);
    if (ok && !any) hit = i;
    any = any || ok;
    if (all && !ok) return false;
    if (!all && ok) return true;
  }
  return all ? n > 0 : any;
}

}  // namespace

std::string header_text(const std::vector<net::HeaderField>& fields) {
  std::string out;
  for (const auto& f : fields) {
    std::string name = f.name;
    bool up = true;
    for (auto& c : name) {
      c = static_cast<char>(up ? std::toupper(static_cast<unsigned char>(c)) : c);
      up = c == '-';
    }
    out += name + ": " + f.value + "\r\n";
  }
  return out;
}

bool matches(const Matcher& m, const Response& r, std::string* excerpt) {
  bool ok = false;
  std::string found;
  std::size_t hit = 0;
  switch (m.type) {
    case Matcher::Type::Word: {
      auto text = part_text(m.part, r);
      if (m.case_insensitive) text = lower(std::move(text));
      ok = combine(
          m.words.size(), m.all, [&](std::size_t i) { return text.find(m.words[i]) != std::string::npos; }, hit);
      if (ok) {
        found = m.words[hit];
        if (m.all && m.words.size() > 1) found += " (+" + std::to_string(m.words.size() - 1) + " more words)";
      }
      break;
    }
    case Matcher::Type::Regex: {
      auto text = part_text(m.part, r);
      re2::StringPiece match;
      ok = combine(
          m.regexes.size(), m.all,
          [&](std::size_t i) {
            re2::StringPiece whole;
            bool got = m.regexes[i]->Match(text, 0, text.size(), re2::RE2::UNANCHORED, &whole, 1);
            if (got && match.empty()) match = whole;
            return got;
          },
          hit);
      found = std::string(match.data(), match.size());
      break;
    }
    case Matcher::Type::Status:
      ok = std::find(m.status.begin(), m.status.end(), r.status) != m.status.end();
      found = "status " + std::to_string(r.status);
      break;
    case Matcher::Type::Size:
      ok = std::find(m.sizes.begin(), m.sizes.end(), r.body.size()) != m.sizes.end();
      found = "size " + std::to_string(r.body.size());
      break;
    case Matcher::Type::Dsl:
      ok = combine(
          m.dsl.size(), m.all, [&](std::size_t i) { return m.dsl[i].eval(r); }, hit);
      found = ok ? m.dsl[hit].text() : "";
      break;
  }
  if (m.negative) {
    ok = !ok;
    found = ok ? "absent as required" : "";
  }
  if (ok && excerpt) *excerpt = bounded(found);
  return ok;
}

std::vector<std::string> extract(const Extractor& x, const Response& r, const std::vector<net::HeaderField>& fields) {
  std::vector<std::string> out;
  auto add = [&](std::string v) {
    v = bounded(v);
    if (out.size() < lim::kExtractedValues && std::find(out.begin(), out.end(), v) == out.end())
      out.push_back(std::move(v));
  };
  if (x.type == Extractor::Type::Kval) {
    for (const auto& f : fields) {
      auto key = f.name;
      std::replace(key.begin(), key.end(), '-', '_');
      if (std::find(x.keys.begin(), x.keys.end(), key) != x.keys.end()) add(f.value);
      if (f.name == "set-cookie") {
        auto eq = f.value.find('=');
        if (eq == std::string::npos) continue;
        auto name = lower(f.value.substr(0, eq));
        std::replace(name.begin(), name.end(), '-', '_');
        if (std::find(x.keys.begin(), x.keys.end(), name) != x.keys.end())
          add(f.value.substr(eq + 1,
                             f.value.find(';') == std::string::npos ? std::string::npos : f.value.find(';') - eq - 1));
      }
    }
    return out;
  }
  auto text = part_text(x.part, r);
  for (const auto& re : x.regexes) {
    std::vector<re2::StringPiece> groups(static_cast<std::size_t>(x.group) + 1);
    std::size_t pos = 0;
    while (pos <= text.size() && out.size() < lim::kExtractedValues &&
           re->Match(text, pos, text.size(), re2::RE2::UNANCHORED, groups.data(), x.group + 1)) {
      const auto& g = groups[static_cast<std::size_t>(x.group)];
      add(std::string(g.data(), g.size()));
      auto end = static_cast<std::size_t>(groups[0].data() + groups[0].size() - text.data());
      pos = end > pos ? end : pos + 1;
    }
  }
  return out;
}

BlockOutcome evaluate(const HttpBlock& b, const Response& r, const std::vector<net::HeaderField>& fields) {
  BlockOutcome out;
  if (!b.matchers.empty()) {
    std::vector<std::string> proofs;
    bool any = false, all = true;
    for (const auto& m : b.matchers) {
      std::string ex;
      bool ok = matches(m, r, &ex);
      if (ok) {
        any = true;
        proofs.push_back(std::move(ex));
      } else {
        all = false;
        if (b.matchers_all) break;
      }
    }
    out.matched = b.matchers_all ? all : any;
    if (!out.matched) return out;
    std::string joined;
    for (const auto& p : proofs) joined += (joined.empty() ? "" : "; ") + p;
    out.excerpt = text::utf8_prefix(joined, lim::kExcerptBytes);
  }
  for (const auto& x : b.extractors)
    for (auto& v : extract(x, r, fields))
      if (out.extracted.size() < lim::kExtractedValues)
        out.extracted.push_back(x.name.empty() ? std::move(v) : x.name + "=" + v);
  if (b.matchers.empty()) {
    out.matched = !out.extracted.empty();
    if (out.matched) out.excerpt = text::utf8_prefix(out.extracted.front(), lim::kExcerptBytes);
  }
  return out;
}

}  // namespace dozor::scan::templates
