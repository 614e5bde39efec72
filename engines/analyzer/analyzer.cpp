#include "engines/analyzer/analyzer.hpp"

#include <set>

#include "engines/analyzer/text.hpp"
#include "engines/limits.hpp"

namespace dozor::analyzer {

std::string risk_of(const std::map<std::string, std::size_t>& counts) {
  static const std::set<std::string> kHigh{"passport_rf",  "snils",      "inn",       "bank_card",
                                           "bank_account", "oms_policy", "birth_date"};
  if (counts.empty()) return "none";
  bool names = false, contacts = false;
  for (const auto& [cat, n] : counts) {
    if (is_special_category(cat) || kHigh.count(cat)) return "high";
    if (cat == "full_name") names = true;
    if (cat == "phone" || cat == "email" || cat == "car_plate" || cat == "ogrn" || cat == "address") contacts = true;
  }
  return names && contacts ? "medium" : "low";
}

Analyzer::Analyzer(const std::string& model_dir) {
  detector_ = std::make_unique<Detector>(load_model(model_dir));
  auto failures = detector_->self_test();
  if (!failures.empty()) {
    std::string msg = "model self-test failed: ";
    for (std::size_t i = 0; i < failures.size(); ++i) msg += (i ? "; " : "") + failures[i];
    throw ModelError(msg);
  }
  loaded_at_ = std::chrono::system_clock::now();
}

Report Analyzer::analyze(std::string_view bytes, std::string_view content_type, const ExtractLimits& limits) const {
  return analyze(extract(bytes, content_type, limits), limits.deadline);
}

Report Analyzer::analyze(const Document& doc, const Deadline& deadline) const {
  Report r;
  r.type = doc.type;
  r.charset = doc.charset;
  r.pages = doc.pages;
  r.ocr_pages = doc.ocr_pages;
  r.pages_without_text = doc.pages_without_text;
  r.segments = doc.segments.size();
  for (const auto& s : doc.segments) {
    r.characters += text::char_count(s.text);
    r.words += text::word_count(s.text);
  }
  // Every finding is counted; only the first kMaxFindings are kept (a dense document has millions).
  std::set<std::string> special;
  detector_->scan(doc, deadline, [&](Finding&& f) {
    ++r.findings_total;
    ++r.counts[f.category];
    if (f.special) special.insert(f.category);
    if (r.findings.size() < limits::analyzer::kMaxFindings) r.findings.push_back(std::move(f));
  });
  r.special.assign(special.begin(), special.end());
  r.risk = risk_of(r.counts);
  return r;
}

}  // namespace dozor::analyzer
