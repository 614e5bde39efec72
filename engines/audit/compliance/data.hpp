#pragma once
// The compliance engine's data (share/audit/compliance/, docs/compliance.md): the requirement
// sets and items with their references (requirements.toml), the keyword lists (keywords.toml)
// and the third-party services (services.toml). Loaded once at start; phrases are stemmed then.
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "engines/audit/compliance/words.hpp"
#include "engines/audit/finding.hpp"

namespace dozor::audit::compliance {

struct SetSpec {
  std::string id;  // "152-FZ" | "8-FZ" | "FSTEC"
  std::string title_ru;
  std::string title_en;
};

struct ItemSpec {
  std::string id;  // "PD-01" …
  std::string set;
  bool automated = true;  // mode = "auto"; "manual" items are never passed or failed
  Severity severity = Severity::Info;
  std::string reference;
  std::string title_ru;
  std::string title_en;
  std::string recommendation_ru;
  std::string recommendation_en;
};

struct PhraseList {
  std::vector<std::string> text;  // as written in the file
  std::vector<Phrase> stems;
};

struct Service {
  std::string name;
  std::vector<std::string> hosts;  // "host.suffix" or "host.suffix/path-prefix"
  std::string country;             // ru | foreign
  std::string kind;                // tracker | collection | passive | consent
  std::vector<std::string> cookies;
};

struct Data {
  std::vector<SetSpec> sets;
  std::vector<ItemSpec> items;  // in file order (the answer's order)
  std::map<std::string, PhraseList> phrases;
  std::map<std::string, PhraseList> policy_topics;
  std::map<std::string, PhraseList> gov_sections;  // by item id
  std::map<std::string, std::vector<std::string>> tokens;
  std::vector<Service> services;

  // Throw std::out_of_range for a name the files do not have (load() makes sure they do).
  const PhraseList& phrase(const std::string& name) const { return phrases.at(name); }
  const std::vector<std::string>& token(const std::string& name) const { return tokens.at(name); }
  const ItemSpec& item(std::string_view id) const;
};

// The lists the engine reads; load() refuses files without any of them.
const std::vector<std::string>& phrase_list_names();
const std::vector<std::string>& token_list_names();
const std::vector<std::string>& policy_topic_names();
const std::vector<std::string>& gov_section_items();  // items found by link text

// Reads the three files of `dir`; throws std::runtime_error naming the file and the problem.
Data load_data(const std::filesystem::path& dir);

}  // namespace dozor::audit::compliance
