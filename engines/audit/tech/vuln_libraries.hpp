#pragma once
// Vulnerable JavaScript libraries (share/audit/vulnlibs/libraries.json, docs/audit.md
// "Vulnerable JavaScript libraries"), retire.js-like in spirit, data of our own: per library the
// regexes that find its version in a script URL ("jquery-3.4.1.min.js", "/jquery@3.4.1/") or in
// a script's text (the banner comment), and advisories with the versions they affect.
#include <boost/json/array.hpp>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "engines/audit/finding.hpp"
#include "engines/audit/tech/detector.hpp"
#include "engines/audit/tech/patterns.hpp"
#include "engines/crawl/crawler.hpp"

namespace dozor::audit::tech {

struct Advisory {
  std::string id;  // CVE-… or GHSA-…; the first of `ids`
  std::vector<std::string> ids;
  Severity severity = Severity::Medium;
  std::string at_or_above;  // empty: every version below `below`
  std::string below;        // the first fixed version
  std::string summary;
};

struct Library {
  std::string id;
  std::string name;
  std::string website;
  std::vector<std::string> file_names;  // lower case words a script's file name has when it is this library
  std::vector<Advisory> advisories;
};

struct VulnLibraries {
  std::string version;
  std::vector<Library> libraries;
  std::map<std::string, std::size_t> by_id;
  PatternSet uri;          // script URLs; the one group is the version
  PatternSet filecontent;  // script text (inline, or fetched): banners

  // The advisories of `library` that `version` is affected by, worst first.
  std::vector<const Advisory*> affecting(std::size_t library, std::string_view seen) const;

  // Throws std::runtime_error naming the problem (bad JSON, unknown severity, a regex without
  // {version}, an advisory without an id or a "below" that is no version).
  static VulnLibraries parse(std::string_view json);
  static VulnLibraries load(const std::filesystem::path& audit_data_dir);  // <dir>/vulnlibs/libraries.json
};

// A library version seen, with where.
struct LibrarySighting {
  std::string script;  // the script URL (or the page for inline text)
  std::string page;
  std::string match;
};

struct LibraryHit {
  const Library* library = nullptr;
  std::string version;
  std::vector<const Advisory*> advisories;  // worst first; empty: no known advisory
  std::vector<LibrarySighting> sightings;   // at most limits::tech::kEvidencePerLibrary
};

// Collects library versions from pages (and from script bodies where the caller fetched them).
class LibraryScanner {
 public:
  explicit LibraryScanner(const VulnLibraries& data);
  void script_url(const std::string& url, const std::string& page);
  void script_text(std::string_view text, const std::string& script, const std::string& page);
  // Every script of a page: URLs, and inline texts for banners.
  void page(const crawl::PageSeen& page);
  // A script whose file name names a library but whose URL gives no version: its banner may.
  bool worth_fetching(const std::string& script_url) const;

  std::vector<LibraryHit> vulnerable() const;  // only hits with advisories, worst first
  std::vector<LibraryHit> seen() const;        // every library version seen

 private:
  void add(const Pattern& p, const Match& m, const std::string& script, const std::string& page);
  const VulnLibraries& data_;
  std::map<std::pair<std::size_t, std::string>, LibraryHit> hits_;
};

Severity worst(const LibraryHit& hit);

// A technology detected without a version takes the one the library scanner read for the library
// of the same name (from a script's URL or banner), so the list and the findings agree.
void fill_versions(std::vector<Detection>& detections, const std::vector<LibraryHit>& seen);

boost::json::array to_json(const std::vector<LibraryHit>& hits);

// One finding per vulnerable library version (A06:2021, CWE-1104), severity of its worst advisory.
std::vector<Finding> findings_of(const std::vector<LibraryHit>& hits);

}  // namespace dozor::audit::tech
