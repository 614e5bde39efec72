#pragma once
// The analyzer's model: a versioned data bundle (share/analyzer/) whose manifest names every
// file with its sha256. load_model refuses a bundle whose files differ from the manifest, so a
// model is exactly the one its version names (docs/analyzer.md).
#include <map>
#include <stdexcept>
#include <string>
#include <unordered_set>
#include <vector>

namespace dozor::analyzer {

enum class ContextMode { None, Boost, Required };

struct Rule {
  std::string id;
  std::string category;
  std::string pattern;               // RE2, one capture group: the value
  std::string validator;             // a check implemented in code (detector.cpp)
  std::vector<std::string> context;  // case-folded words looked for near the value
  ContextMode context_mode = ContextMode::None;
  double confidence = 0.5;          // without context
  double confidence_context = 0.5;  // with context
};

struct Sample {
  std::string text;
  std::vector<std::string> expect;  // categories, sorted
};

struct Model {
  std::string name;
  std::string version;
  std::string checksum;  // sha256 of manifest.json, which fixes every file's sha256
  std::vector<Rule> rules;
  std::unordered_set<std::string> first_names;  // case-folded nominative forms
  std::unordered_set<std::string> surnames;
  std::map<std::string, std::vector<std::string>> special;  // art. 10 category → keywords
  std::vector<Sample> samples;
};

struct ModelError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Reads DIR/manifest.json and every file it lists, checking sizes and sha256; throws
// ModelError naming the file and the reason.
Model load_model(const std::string& dir);

std::string sha256_hex(const std::string& bytes);

}  // namespace dozor::analyzer
