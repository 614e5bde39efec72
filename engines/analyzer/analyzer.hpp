#pragma once
// The document analyzer (component C): a loaded model, self-tested, that turns document bytes
// into a report of the personal data found. Thread-safe after construction.
#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engines/analyzer/detector.hpp"
#include "engines/analyzer/extract.hpp"

namespace dozor::analyzer {

struct Report {
  std::string type;
  std::string charset;
  std::size_t pages = 0;
  std::size_t ocr_pages = 0;           // pages read by OCR
  std::size_t pages_without_text = 0;  // pages without a text layer that OCR did not read
  std::size_t segments = 0;
  std::size_t characters = 0;
  std::size_t words = 0;
  std::vector<Finding> findings;  // at most kMaxFindings listed
  std::size_t findings_total = 0;
  std::map<std::string, std::size_t> counts;  // per category, all findings
  std::vector<std::string> special;           // special categories found (art. 10, 11)
  std::string risk;                           // none | low | medium | high (docs/analyzer.md)
};

// Risk of a set of categories: high for special categories and identity or payment documents,
// medium for names with contacts, low for contacts alone, none for nothing.
std::string risk_of(const std::map<std::string, std::size_t>& counts);

class Analyzer {
 public:
  // Loads and checks the bundle in `model_dir`, compiles the rules and runs the self-test.
  // Throws ModelError with the reason when any step fails.
  explicit Analyzer(const std::string& model_dir);

  Report analyze(std::string_view bytes, std::string_view content_type, const ExtractLimits& limits = {}) const;
  Report analyze(const Document& doc, const Deadline& deadline = {}) const;

  const Model& model() const { return detector_->model(); }
  std::chrono::system_clock::time_point loaded_at() const { return loaded_at_; }

 private:
  std::unique_ptr<Detector> detector_;
  std::chrono::system_clock::time_point loaded_at_;
};

}  // namespace dozor::analyzer
