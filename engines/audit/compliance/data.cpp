#include "engines/audit/compliance/data.hpp"

#include <toml++/toml.h>
#include <set>
#include <stdexcept>

namespace dozor::audit::compliance {

// Function-local statics: built on first use, not before main (an allocation failure then is an
// ordinary exception).
const std::vector<std::string>& phrase_list_names() {
  static const std::vector<std::string> names = {
      "policy_link",     "pd_terms",         "pd_field_labels", "consent_label",
      "implied_consent", "consent_document", "cookie_notice",   "cookie_notice_script",
      "operator_names",  "gov_official",     "gov_body",        "gov_news",
      "site_map"};
  return names;
}

const std::vector<std::string>& token_list_names() {
  static const std::vector<std::string> names = {
      "policy_href", "pd_field_names",  "search_names",     "consent_names",    "inn_labels",
      "ogrn_labels", "gov_hosts",       "gov_widget_hosts", "gov_social_hosts", "opendata_href",
      "bvi_scripts", "version_headers", "admin_paths"};
  return names;
}

const std::vector<std::string>& policy_topic_names() {
  static const std::vector<std::string> names = {"operator", "purposes",   "categories",   "legal_basis", "retention",
                                                 "rights",   "processors", "cross_border", "protection"};
  return names;
}

const std::vector<std::string>& gov_section_items() {
  static const std::vector<std::string> names = {"GOV-01", "GOV-02", "GOV-03", "GOV-04", "GOV-05", "GOV-06",
                                                 "GOV-07", "GOV-08", "GOV-09", "GOV-11", "GOV-12", "GOV-14"};
  return names;
}

namespace {

[[noreturn]] void fail(const std::filesystem::path& file, const std::string& what) {
  throw std::runtime_error(file.string() + ": " + what);
}

toml::table parse(const std::filesystem::path& file) {
  try {
    return toml::parse_file(file.string());
  } catch (const toml::parse_error& e) {
    fail(file, std::string("not valid TOML: ") + std::string(e.description()));
  }
}

std::string text_of(const toml::table& t, const char* key, const std::filesystem::path& file,
                    const std::string& where) {
  auto v = t[key].value<std::string>();
  if (!v || v->empty()) fail(file, where + ": '" + key + "' must be a non-empty string");
  return *v;
}

std::vector<std::string> strings_of(const toml::node& node, const std::filesystem::path& file, const std::string& where,
                                    bool allow_empty = false) {
  const toml::array* arr = node.as_array();
  if (arr == nullptr) fail(file, where + " must be an array of strings");
  std::vector<std::string> out;
  for (const auto& el : *arr) {
    auto s = el.value<std::string>();
    if (!s || s->empty()) fail(file, where + " holds something that is not a non-empty string");
    out.push_back(*s);
  }
  if (out.empty() && !allow_empty) fail(file, where + " is empty");
  return out;
}

PhraseList phrases_of(const toml::node& node, const std::filesystem::path& file, const std::string& where,
                      Stemmer& stemmer) {
  PhraseList list;
  list.text = strings_of(node, file, where);
  for (const auto& p : list.text) {
    Phrase stems = phrase_of(p, stemmer);
    if (stems.empty()) {
      std::string what = where;
      what.append(": '").append(p).append("' has no words");
      fail(file, what);
    }
    list.stems.push_back(std::move(stems));
  }
  return list;
}

void load_requirements(Data& d, const std::filesystem::path& file) {
  toml::table t = parse(file);
  const toml::array* sets = t["set"].as_array();
  if (sets == nullptr || sets->empty()) fail(file, "no [[set]]");
  std::set<std::string> set_ids;
  for (const auto& node : *sets) {
    const toml::table* s = node.as_table();
    if (s == nullptr) fail(file, "[[set]] must be tables");
    SetSpec spec{text_of(*s, "id", file, "set"), text_of(*s, "title_ru", file, "set"),
                 text_of(*s, "title_en", file, "set")};
    if (!set_ids.insert(spec.id).second) fail(file, "set " + spec.id + " appears twice");
    d.sets.push_back(std::move(spec));
  }
  const toml::array* items = t["item"].as_array();
  if (items == nullptr || items->empty()) fail(file, "no [[item]]");
  std::set<std::string> ids;
  for (const auto& node : *items) {
    const toml::table* it = node.as_table();
    if (it == nullptr) fail(file, "[[item]] must be tables");
    ItemSpec spec;
    spec.id = text_of(*it, "id", file, "item");
    const std::string where = "item " + spec.id;
    if (!ids.insert(spec.id).second) fail(file, where + " appears twice");
    spec.set = text_of(*it, "set", file, where);
    if (!set_ids.count(spec.set)) fail(file, where + ": unknown set " + spec.set);
    std::string mode = text_of(*it, "mode", file, where);
    if (mode != "auto" && mode != "manual") fail(file, where + ": mode must be auto or manual");
    spec.automated = mode == "auto";
    auto sev = severity_from(text_of(*it, "severity", file, where));
    if (!sev) fail(file, where + ": severity must be info, low, medium, high or critical");
    spec.severity = *sev;
    spec.reference = text_of(*it, "reference", file, where);
    spec.title_ru = text_of(*it, "title_ru", file, where);
    spec.title_en = text_of(*it, "title_en", file, where);
    spec.recommendation_ru = text_of(*it, "recommendation_ru", file, where);
    spec.recommendation_en = text_of(*it, "recommendation_en", file, where);
    d.items.push_back(std::move(spec));
  }
}

void load_keywords(Data& d, const std::filesystem::path& file, Stemmer& stemmer) {
  toml::table t = parse(file);
  const toml::table* phrases = t["phrases"].as_table();
  const toml::table* topics = t["policy_topics"].as_table();
  const toml::table* sections = t["gov_sections"].as_table();
  const toml::table* tokens = t["tokens"].as_table();
  if (!phrases || !topics || !sections || !tokens)
    fail(file, "needs the tables [phrases], [policy_topics], [gov_sections] and [tokens]");
  for (const auto& [k, v] : *phrases)
    d.phrases[std::string(k.str())] = phrases_of(v, file, "phrases." + std::string(k.str()), stemmer);
  for (const auto& [k, v] : *topics)
    d.policy_topics[std::string(k.str())] = phrases_of(v, file, "policy_topics." + std::string(k.str()), stemmer);
  for (const auto& [k, v] : *sections)
    d.gov_sections[std::string(k.str())] = phrases_of(v, file, "gov_sections." + std::string(k.str()), stemmer);
  for (const auto& [k, v] : *tokens)
    d.tokens[std::string(k.str())] = strings_of(v, file, "tokens." + std::string(k.str()));
  for (const auto& n : phrase_list_names())
    if (!d.phrases.count(n)) fail(file, "phrases." + n + " is missing");
  for (const auto& n : token_list_names())
    if (!d.tokens.count(n)) fail(file, "tokens." + n + " is missing");
  for (const auto& n : policy_topic_names())
    if (!d.policy_topics.count(n)) fail(file, "policy_topics." + n + " is missing");
  for (const auto& n : gov_section_items())
    if (!d.gov_sections.count(n)) fail(file, "gov_sections." + n + " is missing");
  for (const auto& [k, v] : d.gov_sections) {
    (void)v;
    bool known = false;
    for (const auto& it : d.items) known = known || it.id == k;
    if (!known) fail(file, "gov_sections." + k + " names no item");
  }
}

void load_services(Data& d, const std::filesystem::path& file) {
  toml::table t = parse(file);
  const toml::array* services = t["service"].as_array();
  if (services == nullptr || services->empty()) fail(file, "no [[service]]");
  for (const auto& node : *services) {
    const toml::table* s = node.as_table();
    if (s == nullptr) fail(file, "[[service]] must be tables");
    Service svc;
    svc.name = text_of(*s, "name", file, "service");
    const std::string where = "service " + svc.name;
    const toml::node* hosts = (*s)["hosts"].node();
    if (hosts == nullptr) fail(file, where + ": hosts is missing");
    svc.hosts = strings_of(*hosts, file, where + ".hosts");
    svc.country = text_of(*s, "country", file, where);
    if (svc.country != "ru" && svc.country != "foreign") fail(file, where + ": country must be ru or foreign");
    svc.kind = text_of(*s, "kind", file, where);
    if (svc.kind != "tracker" && svc.kind != "collection" && svc.kind != "passive" && svc.kind != "consent")
      fail(file, where + ": kind must be tracker, collection, passive or consent");
    if (const toml::node* c = (*s)["cookies"].node()) svc.cookies = strings_of(*c, file, where + ".cookies", true);
    d.services.push_back(std::move(svc));
  }
}

}  // namespace

const ItemSpec& Data::item(std::string_view id) const {
  for (const auto& it : items)
    if (it.id == id) return it;
  throw std::out_of_range("compliance: no item " + std::string(id));
}

Data load_data(const std::filesystem::path& dir) {
  Data d;
  Stemmer stemmer;
  load_requirements(d, dir / "requirements.toml");
  load_keywords(d, dir / "keywords.toml", stemmer);
  load_services(d, dir / "services.toml");
  return d;
}

}  // namespace dozor::audit::compliance
