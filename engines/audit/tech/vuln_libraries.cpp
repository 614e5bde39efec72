#include "engines/audit/tech/vuln_libraries.hpp"

#include <re2/re2.h>

#include <algorithm>
#include <boost/json/object.hpp>
#include <boost/url/parse.hpp>
#include <cctype>
#include <stdexcept>

#include "engines/audit/data_file.hpp"
#include "engines/audit/tech/version.hpp"
#include "engines/limits.hpp"

namespace dozor::audit::tech {
namespace {

namespace json = boost::json;

// What {version} stands for: dotted digits and an optional pre-release tag. ".min" and ".slim"
// after it are not part of it.
constexpr const char* kVersionGroup = R"((\d+(?:\.\d+)+(?:[-.]?(?:alpha|beta|rc|pre|dev)\.?\d*)?))";

std::string str(const json::object& o, const char* key, const std::string& where, bool required = true) {
  const auto* v = o.if_contains(key);
  if (!v || !v->is_string() || v->as_string().empty()) {
    if (!required && !v) return {};
    throw std::runtime_error(where + ": \"" + key + "\" must be a non-empty string");
  }
  return std::string(v->as_string());
}

void add_patterns(const json::object& lib, const char* key, std::size_t owner, PatternSet& set,
                  const std::string& where) {
  const auto* v = lib.if_contains(key);
  if (!v) return;
  if (!v->is_array()) throw std::runtime_error(where + ": \"" + key + "\" must be an array");
  for (const auto& item : v->as_array()) {
    if (!item.is_string()) throw std::runtime_error(where + ": \"" + key + "\" holds a non-string");
    std::string regex(item.as_string());
    auto at = regex.find("{version}");
    if (at == std::string::npos || regex.find("{version}", at + 1) != std::string::npos)
      throw std::runtime_error(where + ": " + regex.append(": needs {version} exactly once"));
    regex.replace(at, 9, kVersionGroup);
    Pattern p;
    p.owner = owner;
    p.source = key;
    p.regex = regex;
    p.re = compile_pattern(regex, where + "." + key);
    if (p.re->NumberOfCapturingGroups() != 1)
      throw std::runtime_error(where + ": " + std::string(item.as_string()) +
                               ": use (?:…) — {version} is the one group");
    p.version = "\\1";
    set.add(std::move(p));
  }
}

std::string file_name(const std::string& url) {
  auto u = boost::urls::parse_uri_reference(url);
  std::string path = u ? std::string(u->path()) : url;
  auto slash = path.rfind('/');
  std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return name;
}

}  // namespace

std::vector<const Advisory*> VulnLibraries::affecting(std::size_t library, std::string_view seen) const {
  std::vector<const Advisory*> out;
  for (const auto& a : libraries.at(library).advisories)
    if (version_in_range(seen, a.at_or_above, a.below)) out.push_back(&a);
  std::stable_sort(out.begin(), out.end(),
                   [](const Advisory* a, const Advisory* b) { return a->severity > b->severity; });
  return out;
}

VulnLibraries VulnLibraries::parse(std::string_view text) {
  const auto root = parse_data_object(text, "vulnlibs");
  const auto* o = &root;
  VulnLibraries d;
  d.version = str(*o, "version", "vulnlibs");
  const auto* libs = o->if_contains("libraries");
  if (!libs || !libs->is_object() || libs->as_object().empty())
    throw std::runtime_error("vulnlibs: \"libraries\" must be a non-empty object");
  for (const auto& kv : libs->as_object()) {
    std::string where = "vulnlibs: " + std::string(kv.key());
    const auto* lo = kv.value().if_object();
    if (!lo) throw std::runtime_error(where + ": must be an object");
    std::size_t index = d.libraries.size();
    Library lib;
    lib.id = std::string(kv.key());
    lib.name = str(*lo, "name", where);
    lib.website = str(*lo, "website", where, false);
    if (const auto* names = lo->if_contains("file_names")) {
      if (!names->is_array()) throw std::runtime_error(where + ": \"file_names\" must be an array");
      for (const auto& n : names->as_array())
        if (n.is_string() && !n.as_string().empty()) {
          // Matched against lower-cased script names: the data may spell them any way.
          std::string name(n.as_string());
          std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
          lib.file_names.push_back(std::move(name));
        }
    } else {
      lib.file_names.push_back(lib.id);
    }
    add_patterns(*lo, "uri", index, d.uri, where);
    add_patterns(*lo, "filecontent", index, d.filecontent, where);
    const auto* advisories = lo->if_contains("advisories");
    if (!advisories || !advisories->is_array()) throw std::runtime_error(where + ": \"advisories\" must be an array");
    for (const auto& av : advisories->as_array()) {
      const auto* ao = av.if_object();
      if (!ao) throw std::runtime_error(where + ": an advisory must be an object");
      Advisory a;
      a.id = str(*ao, "id", where);
      std::string aw = where + " " + a.id;
      a.ids.push_back(a.id);
      if (const auto* more = ao->if_contains("aliases"); more && more->is_array())
        for (const auto& m : more->as_array())
          if (m.is_string()) a.ids.emplace_back(m.as_string());
      auto sev = severity_from(str(*ao, "severity", aw));
      if (!sev) throw std::runtime_error(aw + ": unknown severity");
      a.severity = *sev;
      a.at_or_above = str(*ao, "at_or_above", aw, false);
      a.below = str(*ao, "below", aw, false);  // absent: no fixed release
      a.summary = str(*ao, "summary", aw);
      for (const auto* bound : {&a.at_or_above, &a.below})
        if (!bound->empty() && !plausible_version(*bound))
          throw std::runtime_error(aw + ": " + *bound + " is no version");
      if (!a.at_or_above.empty() && !a.below.empty() && compare_versions(a.at_or_above, a.below) >= 0)
        throw std::runtime_error(aw + ": at_or_above is not below \"below\"");
      lib.advisories.push_back(std::move(a));
    }
    d.by_id[lib.id] = index;
    d.libraries.push_back(std::move(lib));
  }
  d.uri.compile();
  d.filecontent.compile();
  return d;
}

VulnLibraries VulnLibraries::load(const std::filesystem::path& audit_data_dir) {
  auto path = audit_data_dir / "vulnlibs" / "libraries.json";
  return parse(read_data_file(path, "vulnlibs"));
}

LibraryScanner::LibraryScanner(const VulnLibraries& data) : data_(data) {}

void LibraryScanner::add(const Pattern& p, const Match& m, const std::string& script, const std::string& page) {
  if (m.version.empty()) return;
  auto key = std::make_pair(p.owner, m.version);
  auto it = hits_.find(key);
  if (it == hits_.end()) {
    LibraryHit h;
    h.library = &data_.libraries[p.owner];
    h.version = m.version;
    h.advisories = data_.affecting(p.owner, m.version);
    it = hits_.emplace(key, std::move(h)).first;
  }
  auto& s = it->second.sightings;
  if (s.size() < limits::tech::kEvidencePerLibrary &&
      std::none_of(s.begin(), s.end(), [&](const LibrarySighting& x) { return x.script == script; }))
    s.push_back({script, page, m.excerpt});
}

void LibraryScanner::script_url(const std::string& url, const std::string& page) {
  data_.uri.match(url, [&](const Pattern& p, const Match& m) { add(p, m, url, page); });
}

void LibraryScanner::script_text(std::string_view text, const std::string& script, const std::string& page) {
  data_.filecontent.match(text, [&](const Pattern& p, const Match& m) { add(p, m, script, page); });
}

void LibraryScanner::page(const crawl::PageSeen& page) {
  if (!page.facts) return;
  for (const auto& s : page.facts->scripts) {
    if (!s.raw_src.empty())
      script_url(s.src.empty() ? s.raw_src : s.src, page.url);
    else if (!s.inline_text.empty())
      script_text(s.inline_text, page.url, page.url);
  }
}

bool LibraryScanner::worth_fetching(const std::string& script_url) const {
  bool versioned = false;
  data_.uri.match(script_url, [&](const Pattern&, const Match& m) { versioned = versioned || !m.version.empty(); });
  if (versioned) return false;
  auto name = file_name(script_url);
  if (name.size() < 3 || name.substr(name.size() - 3) != ".js") return false;
  for (const auto& lib : data_.libraries)
    for (const auto& n : lib.file_names)
      if (name.find(n) != std::string::npos) return true;
  return false;
}

std::vector<LibraryHit> LibraryScanner::vulnerable() const {
  std::vector<LibraryHit> out;
  for (const auto& [key, h] : hits_)
    if (!h.advisories.empty()) out.push_back(h);
  std::stable_sort(out.begin(), out.end(), [](const LibraryHit& a, const LibraryHit& b) {
    if (worst(a) != worst(b)) return worst(a) > worst(b);
    return a.library->name < b.library->name;
  });
  return out;
}

std::vector<LibraryHit> LibraryScanner::seen() const {
  std::vector<LibraryHit> out;
  for (const auto& [key, h] : hits_) out.push_back(h);
  return out;
}

void fill_versions(std::vector<Detection>& detections, const std::vector<LibraryHit>& seen) {
  auto lower = [](std::string s) {
    for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  };
  for (auto& d : detections) {
    if (!d.version.empty() || d.tech == nullptr) continue;
    std::vector<std::string> versions;
    for (const auto& h : seen)
      if (lower(h.library->name) == lower(d.tech->name)) versions.push_back(h.version);
    d.version = best_version(versions);
  }
}

Severity worst(const LibraryHit& hit) {
  return hit.advisories.empty() ? Severity::Info : hit.advisories.front()->severity;
}

boost::json::array to_json(const std::vector<LibraryHit>& hits) {
  json::array out;
  for (const auto& h : hits) {
    json::array advisories;
    for (const auto* a : h.advisories) {
      json::array ids;
      for (const auto& id : a->ids) ids.push_back(json::value(id));
      advisories.push_back(json::object{{"id", a->id},
                                        {"identifiers", std::move(ids)},
                                        {"severity", to_string(a->severity)},
                                        {"fixed_in", a->below.empty() ? json::value(nullptr) : json::value(a->below)},
                                        {"summary", a->summary}});
    }
    json::array evidence;
    for (const auto& s : h.sightings)
      evidence.push_back(json::object{{"script", s.script}, {"page", s.page}, {"match", s.match}});
    out.push_back(json::object{{"name", h.library->name},
                               {"id", h.library->id},
                               {"version", h.version},
                               {"severity", to_string(worst(h))},
                               {"advisories", std::move(advisories)},
                               {"evidence", std::move(evidence)}});
  }
  return out;
}

std::vector<Finding> findings_of(const std::vector<LibraryHit>& hits) {
  std::vector<Finding> out;
  for (const auto& h : hits) {
    if (h.advisories.empty()) continue;
    Finding f;
    f.check = "vulnerable-js-" + h.library->id;
    f.title = "Vulnerable JavaScript library: " + h.library->name + " " + h.version;
    f.severity = worst(h);
    f.confidence = "firm";
    f.owasp = "A06:2021";
    f.cwe = 1104;
    std::string fixed;
    bool no_fix = false;
    for (const auto* a : h.advisories) {
      for (const auto& id : a->ids) f.references.push_back(id);
      if (a->below.empty())
        no_fix = true;
      else if (fixed.empty() || compare_versions(a->below, fixed) > 0)
        fixed = a->below;
    }
    f.description = h.library->name + " " + h.version + " is affected by " + std::to_string(h.advisories.size()) +
                    " known advisor" + (h.advisories.size() == 1 ? "y" : "ies") + ": ";
    for (std::size_t i = 0; i < h.advisories.size(); ++i) {
      if (i) f.description += "; ";
      f.description += h.advisories[i]->id + " (" + std::string(to_string(h.advisories[i]->severity)) + ") " +
                       h.advisories[i]->summary;
    }
    f.description += ".";
    if (no_fix)
      f.recommendation = "Replace " + h.library->name + ": some of its advisories have no fixed release" +
                         (fixed.empty() ? std::string() : " (others are fixed in " + fixed + ")") +
                         "; remove it if it is no longer used.";
    else
      f.recommendation = "Upgrade " + h.library->name + " to " + fixed +
                         " or later (the latest release of its line), or remove it if it is no longer used.";
    for (const auto& s : h.sightings) f.evidence.push_back({s.script, s.match, "loaded by " + s.page, std::nullopt});
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace dozor::audit::tech
