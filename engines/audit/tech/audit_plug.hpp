#pragma once
// Technologies and vulnerable libraries in the full audit (docs/audit.md "Technologies"): a
// step before the crawl makes the cheap probes (robots.txt, favicon, readme files), a page
// observer reads every crawled page, and its finish() writes the "technologies" part and one
// finding per vulnerable library version (OWASP A06:2021, CWE-1104). Step and observer share
// one detector.
#include <memory>

#include "engines/audit/full_audit.hpp"
#include "engines/audit/tech/detector.hpp"
#include "engines/audit/tech/vuln_libraries.hpp"

namespace dozor::audit::tech {

struct Shared {
  Shared(const Fingerprints& f, const VulnLibraries& l) : fp(f), detector(f), libraries(l) {}
  const Fingerprints& fp;
  Detector detector;
  LibraryScanner libraries;
};

class TechObserver : public PageObserver {
 public:
  explicit TechObserver(std::shared_ptr<Shared> shared) : shared_(std::move(shared)) {}
  std::string name() const override { return "technologies"; }
  void observe(const crawl::PageSeen& page) override;
  // Banners: a same-origin lodash.js or a bundle names its version only in its text.
  void observe_script(const std::string& url, const std::string& page, std::string_view text) override;
  void finish(const crawl::CrawlResult& crawl, AuditParts& out) override;

 private:
  std::shared_ptr<Shared> shared_;
};

Step probe_step(const std::shared_ptr<Shared>& shared, const Probing& probing);

// Adds the probe step and the observer to `plan`; the probes of unlinked paths only when
// `probing` allows them (otherwise a "technology-probes" entry in plan.skipped).
void add_to_plan(AuditPlan& plan, const Fingerprints& fp, const VulnLibraries& libs, const Probing& probing);

}  // namespace dozor::audit::tech
