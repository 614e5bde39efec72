#include "engines/audit/passive/collector.hpp"

#include <algorithm>

namespace dozor::audit::passive {

Collector::Collector(std::size_t max_evidence) : max_evidence_(max_evidence) {}

void Collector::add(const Rule& rule, const std::string& key, Evidence evidence) {
  auto it = entries_.find(rule.check);
  if (it == entries_.end()) {
    Entry e;
    e.order = entries_.size();
    Finding& f = e.finding;
    f.check = rule.check;
    f.title = rule.title;
    f.severity = rule.severity;
    f.confidence = rule.confidence;
    f.owasp = rule.owasp;
    f.cwe = rule.cwe;
    f.description = rule.description;
    f.recommendation = rule.recommendation;
    it = entries_.emplace(rule.check, std::move(e)).first;
  }
  Entry& e = it->second;
  // Keys are remembered only while evidence is taken: the set stays as bounded as the evidence.
  if (e.finding.evidence.size() >= max_evidence_ || !e.keys.insert(key).second) return;
  e.finding.evidence.push_back(std::move(evidence));
}

std::vector<Finding> Collector::take() {
  std::vector<Entry*> order;
  for (auto& [check, e] : entries_) order.push_back(&e);
  std::stable_sort(order.begin(), order.end(), [](const Entry* a, const Entry* b) {
    if (a->finding.severity != b->finding.severity) return a->finding.severity > b->finding.severity;
    return a->order < b->order;
  });
  std::vector<Finding> out;
  out.reserve(order.size());
  for (auto* e : order) out.push_back(std::move(e->finding));
  entries_.clear();
  return out;
}

}  // namespace dozor::audit::passive
