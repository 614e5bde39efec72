#pragma once
// Technology detection over what a scan saw (docs/audit.md "Technologies"): pages (headers and
// cookies of every hop, meta tags, HTML, script URLs, inline scripts, the URL), robots.txt and
// the cheap probes. Each pattern counts once however many pages it matched on; a technology's
// confidence is the sum of its matched patterns' confidences, capped at 100; `implies` adds
// technologies transitively (with the implier's confidence), `excludes` removes them.
#include <boost/json/array.hpp>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "engines/audit/tech/fingerprints.hpp"
#include "engines/crawl/crawler.hpp"

namespace dozor::audit::tech {

struct TechEvidence {
  std::string
      source;         // header | cookie | meta | html | script_src | scripts | url | robots | probe | favicon | implied
  std::string key;    // header/cookie/meta name, probe path, implying technology's slug
  std::string url;    // where it was seen
  std::string match;  // the matched text (cookie values are not shown)
};

struct Detection {
  const Technology* tech = nullptr;
  std::string version;  // empty when unknown
  int confidence = 0;
  std::vector<TechEvidence> evidence;  // at most limits::tech::kEvidencePerTechnology
};

class Detector {
 public:
  explicit Detector(const Fingerprints& fp);

  void page(const crawl::PageSeen& page);
  void robots(const std::string& url, std::string_view body);
  // A probe's answer (robots.txt and /favicon.ico are probes too): only 2xx answers count.
  void probe(const std::string& url, const std::string& path, int status, std::string_view body);

  // Implies and excludes applied; the most confident first, then by name.
  std::vector<Detection> results() const;

 private:
  struct Found {
    std::set<const Pattern*> patterns;
    int confidence = 0;
    std::vector<std::string> versions;
    std::vector<TechEvidence> evidence;
  };
  void hit(const Pattern& p, const Match& m, const std::string& url);
  void keyed(const std::vector<KeyedPattern>& list, std::string_view name, std::string_view value,
             const std::string& url, bool hide_value);

  const Fingerprints& fp_;
  std::map<std::size_t, Found> found_;
  std::set<std::string> favicon_seen_;
};

// The best of the versions seen: the most specific (most parts), then the newest.
std::string best_version(const std::vector<std::string>& versions);

boost::json::array to_json(const std::vector<Detection>& detections, const Fingerprints& fp);

}  // namespace dozor::audit::tech
