#pragma once
// The technology fingerprints (share/audit/tech, docs/audit.md "Technologies"): categories and
// technologies, data of our own, Wappalyzer-like in spirit. Loaded once (engines/audit/data.hpp)
// and validated: every category and `implies`/`excludes` target must exist, every regex must
// compile. Patterns are grouped by where they look so a page is matched per source in one pass.
#include <cstddef>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "engines/audit/tech/patterns.hpp"

namespace dozor::audit::tech {

struct Category {
  std::string id;
  std::string name;
};

struct Technology {
  std::string slug;
  std::string name;
  std::string website;                  // empty when the data has none
  std::vector<std::size_t> categories;  // indexes into Fingerprints::categories
  std::vector<std::size_t> implies;     // indexes into Fingerprints::technologies
  std::vector<std::size_t> excludes;
};

// A pattern that applies to a named thing: a header, a cookie (a trailing '*' makes the name
// a prefix), a meta tag, a probe path.
struct KeyedPattern {
  std::string key;  // lower case (cookie names and probe paths as written)
  bool prefix = false;
  Pattern pattern;
};

struct Fingerprints {
  std::string version;  // of technologies (the categories file has its own, checked equal)
  std::vector<Category> categories;
  std::vector<Technology> technologies;
  std::map<std::string, std::size_t> by_slug;

  PatternSet html;        // the page's HTML (the first limits::tech::kHtmlBytes)
  PatternSet script_src;  // each <script src> URL, resolved
  PatternSet scripts;     // each inline script
  PatternSet url;         // the page's final URL
  PatternSet robots;      // robots.txt
  std::vector<KeyedPattern> headers;
  std::vector<KeyedPattern> cookies;
  std::vector<KeyedPattern> meta;
  std::vector<KeyedPattern> probes;                   // key = path; the body must match (2xx only)
  std::map<std::string, std::size_t> favicon_sha256;  // hex digest of /favicon.ico → technology

  // The paths to request for probes (robots.txt and /favicon.ico included when used), at most
  // limits::tech::kProbes, in a stable order.
  std::vector<std::string> probe_paths() const;

  // categories.json text and one text per technologies file; throws std::runtime_error naming
  // the file and the problem.
  static Fingerprints parse(std::string_view categories_json,
                            const std::vector<std::pair<std::string, std::string>>& technology_files);
  // <dir>/tech/categories.json and every <dir>/tech/technologies/*.json (sorted by name).
  static Fingerprints load(const std::filesystem::path& audit_data_dir);
};

}  // namespace dozor::audit::tech
