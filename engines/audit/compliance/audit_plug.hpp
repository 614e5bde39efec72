#pragma once
// Compliance in the full audit (docs/compliance.md, docs/audit.md "Full audit and scoring"): a
// page observer feeds every crawled page to the requirement engine, and a step after the crawl
// probes the target's http:// form (SEC-01, PD-13), evaluates the sets, writes the "compliance"
// part and one finding per failed item of medium severity or worse. Both share one engine.
#include <memory>
#include <string>

#include "engines/audit/compliance/engine.hpp"
#include "engines/audit/full_audit.hpp"

namespace dozor::audit::compliance {

// Adds the observer and the step to `plan` for an audit of `target`.
void add_to_plan(AuditPlan& plan, const Data& data, const std::string& target, Profile profile = Profile::Auto);

}  // namespace dozor::audit::compliance
