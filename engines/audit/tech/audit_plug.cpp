#include "engines/audit/tech/audit_plug.hpp"

#include "engines/audit/tech/probes.hpp"

namespace dozor::audit::tech {

void TechObserver::observe(const crawl::PageSeen& page) {
  shared_->detector.page(page);
  shared_->libraries.page(page);
}

void TechObserver::observe_script(const std::string& url, const std::string& page, std::string_view text) {
  shared_->libraries.script_text(text.substr(0, limits::tech::kProbeBodyBytes), url, page);
}

void TechObserver::finish(const crawl::CrawlResult&, AuditParts& out) {
  auto technologies = shared_->detector.results();
  fill_versions(technologies, shared_->libraries.seen());
  out.parts["technologies"] = to_json(technologies, shared_->fp);
  for (auto& f : findings_of(shared_->libraries.vulnerable())) out.findings.push_back(std::move(f));
}

Step probe_step(const std::shared_ptr<Shared>& shared, const Probing& probing) {
  return {"technology-probes", [shared, probing](const StepInput& in, AuditParts&) {
            auto scan = in.scan;
            if (probing.allowed) scan.scope = probing.scope;
            net::ScanSession session(in.policy, std::move(scan));
            // The audit's target is where the crawl starts; the probes go to its origin. A
            // certificate problem is the TLS check's finding, not a reason to see nothing here.
            queue_probes(in.target, shared->fp, session, shared->detector, false, probing.allowed);
            session.run(in.share_of_time(0.25));  // the crawl comes next and needs the rest
          }};
}

void add_to_plan(AuditPlan& plan, const Fingerprints& fp, const VulnLibraries& libs, const Probing& probing) {
  auto shared = std::make_shared<Shared>(fp, libs);
  plan.before_crawl.push_back(probe_step(shared, probing));
  auto unlinked = unlinked_probe_paths(fp);
  if (!probing.allowed && !unlinked.empty()) {
    std::string paths;
    for (const auto& p : unlinked) paths += (paths.empty() ? "" : ", ") + p;
    plan.skipped.push_back({"technology-probes", probing.reason,
                            skipped_detail("The fingerprints' probes (" + paths + ")", probing.reason)});
  }
  plan.observers.push_back(std::make_unique<TechObserver>(shared));
}

}  // namespace dozor::audit::tech
