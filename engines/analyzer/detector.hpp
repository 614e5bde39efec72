#pragma once
// Finds personal data in an extracted document with the model's rules: one RE2::Set pass per
// segment picks the rules whose pattern occurs, then only those rules extract and check values
// (checksums, context words); names and the special categories have their own passes.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <re2/re2.h>
#include <re2/set.h>

#include "engines/analyzer/document.hpp"
#include "engines/analyzer/model.hpp"
#include "engines/analyzer/names.hpp"

namespace dozor::analyzer {

struct Finding {
  std::string category;
  std::string rule;
  std::string value;   // as written in the document: never logged, answered only on reveal
  std::string masked;  // what answers carry
  Location where;
  double confidence = 0;
  bool special = false;  // a special category of 152-FZ art. 10 (or biometrics, art. 11)
};

using FindingSink = std::function<void(Finding&&)>;

// Categories that are special (art. 10, 11): their findings are keywords, not values.
bool is_special_category(const std::string& category);

// "4276 1600 1234 5675" → "**** **** **** 5675"; "ivan@example.ru" → "i***@example.ru";
// names keep the first letter of each word.
std::string mask(const std::string& category, const std::string& value);

class Detector {
 public:
  // Compiles every rule; throws ModelError naming a rule whose pattern or validator is invalid.
  explicit Detector(Model model);
  Detector(const Detector&) = delete;
  Detector& operator=(const Detector&) = delete;

  // Findings in document order, each handed to `sink` as it is made (nothing is kept: a
  // document may hold millions). Segment texts are normalised here. Throws BadDocument when
  // the deadline passes (checked per segment) or the normalised text passes kMaxTextBytes.
  void scan(const Document& doc, const Deadline& deadline, const FindingSink& sink) const;
  // All of them in one list (the self-test and tests; Analyzer keeps kMaxFindings).
  std::vector<Finding> scan(const Document& doc, const Deadline& deadline = {}) const;

  // Runs the model's samples; returns one line per sample that did not give exactly the
  // expected categories (empty: the self-test passed).
  std::vector<std::string> self_test() const;

  const Model& model() const { return model_; }

 private:
  struct Compiled {
    const Rule* rule;
    std::unique_ptr<re2::RE2> re;
  };
  void scan_segment(const Segment& seg, const std::string& norm, const std::vector<std::string>& biks,
                    const FindingSink& sink) const;

  Model model_;
  std::vector<Compiled> rules_;
  std::unique_ptr<re2::RE2::Set> set_;
  std::unique_ptr<re2::RE2::Set> special_set_;
  std::vector<std::pair<std::string, std::string>> special_keywords_;  // set index → (category, keyword)
  names::NameFinder names_;
};

}  // namespace dozor::analyzer
