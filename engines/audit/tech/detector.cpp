#include "engines/audit/tech/detector.hpp"

#include <algorithm>
#include <boost/json/object.hpp>

#include "engines/audit/tech/version.hpp"
#include "engines/auth/crypto.hpp"
#include "engines/limits.hpp"
#include "engines/text/utf8.hpp"

namespace dozor::audit::tech {
namespace {

std::string trim(std::string_view v) {
  auto b = v.find_first_not_of(" \t");
  if (b == std::string_view::npos) return {};
  auto e = v.find_last_not_of(" \t");
  return std::string(v.substr(b, e - b + 1));
}

std::size_t parts(const std::string& v) {
  std::size_t n = 1;
  for (char c : v)
    if (c == '.' || c == '-') ++n;
  return n;
}

}  // namespace

std::string best_version(const std::vector<std::string>& versions) {
  std::string best;
  for (const auto& v : versions) {
    if (best.empty() || parts(v) > parts(best) || (parts(v) == parts(best) && compare_versions(v, best) > 0)) best = v;
  }
  return best;
}

Detector::Detector(const Fingerprints& fp) : fp_(fp) {}

void Detector::hit(const Pattern& p, const Match& m, const std::string& url) {
  Found& f = found_[p.owner];
  if (f.patterns.insert(&p).second) f.confidence = std::min(100, f.confidence + p.confidence);
  if (!m.version.empty() && std::find(f.versions.begin(), f.versions.end(), m.version) == f.versions.end())
    f.versions.push_back(m.version);
  if (f.evidence.size() < limits::tech::kEvidencePerTechnology) {
    TechEvidence e{p.source, p.key, url, m.excerpt};
    bool dup = std::any_of(f.evidence.begin(), f.evidence.end(), [&](const TechEvidence& x) {
      return x.source == e.source && x.key == e.key && x.match == e.match;
    });
    if (!dup) f.evidence.push_back(std::move(e));
  }
}

void Detector::keyed(const std::vector<KeyedPattern>& list, std::string_view name, std::string_view value,
                     const std::string& url, bool hide_value) {
  for (const auto& k : list) {
    bool named = k.prefix ? name.substr(0, k.key.size()) == k.key : name == k.key;
    if (!named) continue;
    Match m;
    if (!match_pattern(k.pattern, value, m)) continue;
    if (hide_value) m.excerpt.clear();  // evidence shows the cookie, never its value
    hit(k.pattern, m, url);
  }
}

void Detector::page(const crawl::PageSeen& page) {
  for (const auto& ex : page.exchanges) {
    for (const auto& h : ex.response_headers) {
      keyed(fp_.headers, h.name, h.value, ex.url, false);
      if (h.name == "set-cookie") {
        std::string_view v = h.value;
        auto pair = v.substr(0, v.find(';'));
        auto eq = pair.find('=');
        if (eq == std::string_view::npos) continue;
        keyed(fp_.cookies, trim(pair.substr(0, eq)), trim(pair.substr(eq + 1)), ex.url, true);
      }
    }
  }
  fp_.url.match(page.url, [&](const Pattern& p, const Match& m) { hit(p, m, page.url); });
  if (page.html) {
    std::string_view html(*page.html);
    if (html.size() > limits::tech::kHtmlBytes) html = html.substr(0, limits::tech::kHtmlBytes);
    fp_.html.match(html, [&](const Pattern& p, const Match& m) { hit(p, m, page.url); });
  }
  if (page.facts) {
    for (const auto& meta : page.facts->meta) keyed(fp_.meta, meta.name, meta.content, page.url, false);
    for (const auto& s : page.facts->scripts) {
      if (!s.raw_src.empty()) {
        const std::string& src = s.src.empty() ? s.raw_src : s.src;
        fp_.script_src.match(src, [&](const Pattern& p, const Match& m) { hit(p, m, src); });
      } else if (!s.inline_text.empty()) {
        fp_.scripts.match(s.inline_text, [&](const Pattern& p, const Match& m) { hit(p, m, page.url); });
      }
    }
  }
}

void Detector::robots(const std::string& url, std::string_view body) {
  fp_.robots.match(body, [&](const Pattern& p, const Match& m) { hit(p, m, url); });
}

void Detector::probe(const std::string& url, const std::string& path, int status, std::string_view body) {
  if (status < 200 || status > 299) return;
  if (path == "/robots.txt") robots(url, body);
  if (path == "/favicon.ico" && !body.empty()) {
    auto hashed = auth::crypto::sha256_hex(body);
    if (!hashed) return;  // OpenSSL failed: no favicon evidence rather than a wrong one
    const std::string& digest = *hashed;
    auto it = fp_.favicon_sha256.find(digest);
    if (it != fp_.favicon_sha256.end() && favicon_seen_.insert(digest).second) {
      Found& f = found_[it->second];
      f.confidence = 100;
      if (f.evidence.size() < limits::tech::kEvidencePerTechnology)
        f.evidence.push_back({"favicon", "sha256", url, digest});
    }
  }
  for (const auto& k : fp_.probes) {
    if (k.key != path) continue;
    Match m;
    if (match_pattern(k.pattern, body, m)) hit(k.pattern, m, url);
  }
}

std::vector<Detection> Detector::results() const {
  // Detected ones, then what they imply, transitively (a technology implied by several keeps
  // the highest confidence it is given).
  std::map<std::size_t, Detection> out;
  for (const auto& [index, f] : found_) {
    Detection d;
    d.tech = &fp_.technologies[index];
    d.version = best_version(f.versions);
    d.confidence = f.confidence;
    d.evidence = f.evidence;
    out[index] = std::move(d);
  }
  std::vector<std::size_t> work;
  work.reserve(out.size());
  for (const auto& [index, d] : out) work.push_back(index);
  while (!work.empty()) {
    std::size_t i = work.back();
    work.pop_back();
    int confidence = out[i].confidence;
    for (std::size_t target : fp_.technologies[i].implies) {
      auto it = out.find(target);
      if (it == out.end()) {
        Detection d;
        d.tech = &fp_.technologies[target];
        d.confidence = confidence;
        d.evidence.push_back({"implied", fp_.technologies[i].slug, "", ""});
        out[target] = std::move(d);
        work.push_back(target);
      } else if (it->second.confidence < confidence && !it->second.evidence.empty() &&
                 it->second.evidence.front().source == "implied") {
        it->second.confidence = confidence;  // only implied ones are raised: detected ones keep their own
        work.push_back(target);
      }
    }
  }
  std::set<std::size_t> excluded;
  for (const auto& [index, d] : out)
    for (std::size_t x : fp_.technologies[index].excludes) excluded.insert(x);
  std::vector<Detection> list;
  for (auto& [index, d] : out)
    if (!excluded.count(index)) list.push_back(std::move(d));
  std::sort(list.begin(), list.end(), [](const Detection& a, const Detection& b) {
    if (a.confidence != b.confidence) return a.confidence > b.confidence;
    return a.tech->name < b.tech->name;
  });
  return list;
}

boost::json::array to_json(const std::vector<Detection>& detections, const Fingerprints& fp) {
  boost::json::array out;
  for (const auto& d : detections) {
    boost::json::array categories;
    for (std::size_t c : d.tech->categories) categories.push_back(boost::json::value(fp.categories[c].name));
    boost::json::array evidence;
    for (const auto& e : d.evidence) {
      boost::json::object o{{"source", e.source}};
      if (!e.key.empty()) o["name"] = e.key;
      if (!e.url.empty()) o["url"] = e.url;
      if (!e.match.empty()) o["match"] = text::to_valid_utf8(e.match);
      evidence.push_back(std::move(o));
    }
    out.push_back(boost::json::object{
        {"name", d.tech->name},
        {"slug", d.tech->slug},
        {"version", d.version.empty() ? boost::json::value(nullptr) : boost::json::value(d.version)},
        {"confidence", d.confidence},
        {"categories", std::move(categories)},
        {"website", d.tech->website.empty() ? boost::json::value(nullptr) : boost::json::value(d.tech->website)},
        {"evidence", std::move(evidence)},
    });
  }
  return out;
}

}  // namespace dozor::audit::tech
