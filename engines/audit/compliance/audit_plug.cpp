#include "engines/audit/compliance/audit_plug.hpp"

namespace dozor::audit::compliance {
namespace {

class ComplianceObserver : public PageObserver {
 public:
  explicit ComplianceObserver(std::shared_ptr<Engine> engine) : engine_(std::move(engine)) {}
  std::string name() const override { return "compliance"; }
  void observe(const crawl::PageSeen& page) override { engine_->observe(page); }
  // The step after the crawl evaluates: it makes the http:// probe first.
  void finish(const crawl::CrawlResult& /*crawl*/, AuditParts& /*out*/) override {}

 private:
  std::shared_ptr<Engine> engine_;
};

}  // namespace

void add_to_plan(AuditPlan& plan, const Data& data, const std::string& target, Profile profile) {
  auto engine = std::make_shared<Engine>(data, target, profile);
  plan.observers.push_back(std::make_unique<ComplianceObserver>(engine));
  plan.after_crawl.push_back({"compliance", [engine](const StepInput& in, AuditParts& out) {
                                probe_http_form(*engine, in.target, in.policy, in.scan);
                                auto result = engine->finish();
                                // No page read: the crawl's own error says why; no sets to judge.
                                if (result.pages_read == 0) return;
                                out.parts["compliance"] = to_json(result);
                                for (auto& f : findings_of(result)) out.findings.push_back(std::move(f));
                              }});
}

}  // namespace dozor::audit::compliance
