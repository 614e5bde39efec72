#include "engines/audit/tech/fingerprints.hpp"

#include <algorithm>
#include <array>
#include <set>
#include <stdexcept>

#include "engines/audit/data_file.hpp"
#include "engines/limits.hpp"

namespace dozor::audit::tech {
namespace {

namespace json = boost::json;

constexpr std::array<std::string_view, 16> kFields = {
    "name",    "website", "categories", "headers", "cookies", "meta",           "html",     "script_src",
    "scripts", "url",     "robots",     "probes",  "implies", "favicon_sha256", "excludes", "description"};

// A data file of format 1 with a non-empty "version".
json::object parse_object(std::string_view text, const std::string& file) {
  auto o = parse_data_object(text, file);
  const auto* version = o.if_contains("version");
  if (!version || !version->is_string() || version->as_string().empty())
    throw std::runtime_error(file + ": \"version\" must be a non-empty string");
  return o;
}

std::vector<std::string> string_list(const json::object& o, const char* key, const std::string& where) {
  std::vector<std::string> out;
  const auto* v = o.if_contains(key);
  if (!v) return out;
  if (!v->is_array()) throw std::runtime_error(where + ": \"" + key + "\" must be an array of strings");
  for (const auto& item : v->as_array()) {
    if (!item.is_string() || item.as_string().empty())
      throw std::runtime_error(where + ": \"" + key + "\" holds a non-string or empty item");
    out.emplace_back(item.as_string());
  }
  return out;
}

// A value that is one pattern or an array of patterns.
std::vector<const json::value*> pattern_values(const json::value& v) {
  std::vector<const json::value*> out;
  if (v.is_array())
    for (const auto& item : v.as_array()) out.push_back(&item);
  else
    out.push_back(&v);
  return out;
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

struct Pending {
  std::vector<std::string> implies, excludes;
  std::string where;
  bool has_pattern = false;
};

}  // namespace

std::vector<std::string> Fingerprints::probe_paths() const {
  std::vector<std::string> out;
  auto add = [&](const std::string& p) {
    if (out.size() < limits::tech::kProbes && std::find(out.begin(), out.end(), p) == out.end()) out.push_back(p);
  };
  if (robots.size() > 0) add("/robots.txt");
  if (!favicon_sha256.empty()) add("/favicon.ico");
  for (const auto& k : probes) add(k.key);
  return out;
}

Fingerprints Fingerprints::parse(std::string_view categories_json,
                                 const std::vector<std::pair<std::string, std::string>>& technology_files) {
  Fingerprints fp;
  auto cats = parse_object(categories_json, "categories.json");
  fp.version = std::string(cats.at("version").as_string());
  const auto* cv = cats.if_contains("categories");
  if (!cv || !cv->is_object() || cv->as_object().empty())
    throw std::runtime_error("categories.json: \"categories\" must be a non-empty object");
  std::map<std::string, std::size_t> cat_index;
  for (const auto& kv : cv->as_object()) {
    if (!kv.value().is_string() || kv.value().as_string().empty())
      throw std::runtime_error("categories.json: category " + std::string(kv.key()) + " needs a name");
    cat_index[std::string(kv.key())] = fp.categories.size();
    fp.categories.push_back({std::string(kv.key()), std::string(kv.value().as_string())});
  }

  std::vector<Pending> pending;
  for (const auto& [file, text] : technology_files) {
    auto root = parse_object(text, file);
    if (root.at("version").as_string() != fp.version)
      throw std::runtime_error(file + ": \"version\" differs from categories.json's " + fp.version);
    const auto* tv = root.if_contains("technologies");
    if (!tv || !tv->is_object()) throw std::runtime_error(file + ": \"technologies\" must be an object");
    for (const auto& kv : tv->as_object()) {
      std::string slug(kv.key());
      std::string where = file;
      where.append(": ").append(slug);
      const auto* t = kv.value().if_object();
      if (!t) throw std::runtime_error(where + ": must be an object");
      if (fp.by_slug.count(slug)) throw std::runtime_error(where + ": defined twice");
      for (const auto& f : *t)
        if (std::find(kFields.begin(), kFields.end(), std::string_view(f.key())) == kFields.end())
          throw std::runtime_error(where + ": unknown field \"" + std::string(f.key()) + "\"");
      std::size_t index = fp.technologies.size();
      Technology tech;
      tech.slug = slug;
      const auto* name = t->if_contains("name");
      if (!name || !name->is_string() || name->as_string().empty())
        throw std::runtime_error(where + ": \"name\" is required");
      tech.name = std::string(name->as_string());
      if (const auto* w = t->if_contains("website"); w && w->is_string()) tech.website = std::string(w->as_string());
      auto categories = string_list(*t, "categories", where);
      if (categories.empty()) throw std::runtime_error(where + ": needs at least one category");
      for (const auto& c : categories) {
        auto it = cat_index.find(c);
        if (it == cat_index.end()) throw std::runtime_error((where + ": unknown category \"").append(c).append("\""));
        tech.categories.push_back(it->second);
      }
      bool any_pattern = false;
      for (const char* src : {"html", "script_src", "scripts", "url", "robots"}) {
        const auto* v = t->if_contains(src);
        if (!v) continue;
        PatternSet& set = std::string_view(src) == "html"         ? fp.html
                          : std::string_view(src) == "script_src" ? fp.script_src
                          : std::string_view(src) == "scripts"    ? fp.scripts
                          : std::string_view(src) == "url"        ? fp.url
                                                                  : fp.robots;
        for (const auto* pv : pattern_values(*v)) {
          set.add(parse_pattern(*pv, index, src, where + "." + src));
          any_pattern = true;
        }
      }
      for (const char* src : {"headers", "cookies", "meta", "probes"}) {
        const auto* v = t->if_contains(src);
        if (!v) continue;
        if (!v->is_object()) throw std::runtime_error(where + ": \"" + src + "\" must be an object");
        std::string source = std::string_view(src) == "headers"   ? "header"
                             : std::string_view(src) == "cookies" ? "cookie"
                             : std::string_view(src) == "meta"    ? "meta"
                                                                  : "probe";
        auto& list = source == "header"   ? fp.headers
                     : source == "cookie" ? fp.cookies
                     : source == "meta"   ? fp.meta
                                          : fp.probes;
        for (const auto& kv2 : v->as_object()) {
          std::string key(kv2.key());
          if (key.empty()) throw std::runtime_error(where + "." + src + ": an empty name");
          if (source == "header" || source == "meta") key = lower(key);
          if (source == "probe" && key.front() != '/')
            throw std::runtime_error(where + ".probes: a path starts with /");
          KeyedPattern k;
          k.prefix = source == "cookie" && key.back() == '*';
          if (k.prefix) key.pop_back();
          k.key = key;
          for (const auto* pv : pattern_values(kv2.value())) {
            std::string at = where;
            at.append(".").append(src).append(".").append(key);
            k.pattern = parse_pattern(*pv, index, source, at);
            k.pattern.key = key;
            list.push_back(k);
            any_pattern = true;
          }
        }
      }
      for (const auto& digest : string_list(*t, "favicon_sha256", where)) {
        if (digest.size() != 64 || digest.find_first_not_of("0123456789abcdef") != std::string::npos)
          throw std::runtime_error(where + ": favicon_sha256 must be 64 lower-case hex digits");
        fp.favicon_sha256[digest] = index;
        any_pattern = true;
      }
      pending.push_back({string_list(*t, "implies", where), string_list(*t, "excludes", where), where, any_pattern});
      fp.by_slug[slug] = index;
      fp.technologies.push_back(std::move(tech));
    }
  }
  for (std::size_t i = 0; i < pending.size(); ++i) {
    for (auto* list : {&pending[i].implies, &pending[i].excludes}) {
      for (const auto& target : *list) {
        auto it = fp.by_slug.find(target);
        if (it == fp.by_slug.end())
          throw std::runtime_error(pending[i].where + ": implies or excludes unknown technology \"" + target + "\"");
        if (it->second == i) throw std::runtime_error(pending[i].where + ": names itself");
        (list == &pending[i].implies ? fp.technologies[i].implies : fp.technologies[i].excludes).push_back(it->second);
      }
    }
  }
  // A technology without patterns is only ever implied: one nobody implies could never be found.
  std::vector<bool> implied(fp.technologies.size(), false);
  for (const auto& t : fp.technologies)
    for (std::size_t i : t.implies) implied[i] = true;
  for (std::size_t i = 0; i < pending.size(); ++i)
    if (!pending[i].has_pattern && !implied[i])
      throw std::runtime_error(pending[i].where + ": has no pattern and no technology implies it");
  for (auto* set : {&fp.html, &fp.script_src, &fp.scripts, &fp.url, &fp.robots}) set->compile();
  return fp;
}

Fingerprints Fingerprints::load(const std::filesystem::path& audit_data_dir) {
  auto dir = audit_data_dir / "tech";
  std::string categories = read_data_file(dir / "categories.json", "technologies");
  std::vector<std::filesystem::path> paths;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir / "technologies", ec))
    if (e.path().extension() == ".json") paths.push_back(e.path());
  if (ec)
    throw std::runtime_error("technologies: cannot list " + (dir / "technologies").string() + ": " + ec.message());
  if (paths.empty()) throw std::runtime_error("technologies: no *.json in " + (dir / "technologies").string());
  std::sort(paths.begin(), paths.end());
  std::vector<std::pair<std::string, std::string>> files;
  files.reserve(paths.size());
  for (const auto& p : paths)
    files.emplace_back("technologies/" + p.filename().string(), read_data_file(p, "technologies"));
  return parse(categories, files);
}

}  // namespace dozor::audit::tech
