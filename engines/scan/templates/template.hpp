#pragma once
// Templates in the Nuclei YAML format, `http` protocol subset (docs/audit.md "Template scanner"):
// parsed with yaml-cpp into this model, every key checked against what the engine implements. A
// template using anything else is skipped with the reason, never half-run.
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engines/audit/finding.hpp"
#include "engines/scan/templates/dsl.hpp"

namespace re2 {
class RE2;
}

namespace dozor::scan::templates {

// What a matcher or an extractor reads: body, heads, or both.
enum class Part { Body, Header, All };

struct Matcher {
  enum class Type { Word, Regex, Status, Size, Dsl } type = Type::Word;
  Part part = Part::Body;
  bool all = false;  // condition: and (every word/regex/dsl) instead of or
  bool negative = false;
  bool case_insensitive = false;
  std::vector<std::string> words;  // lower-cased when case_insensitive
  std::vector<std::shared_ptr<const re2::RE2>> regexes;
  std::vector<int> status;
  std::vector<std::size_t> sizes;
  std::vector<DslExpr> dsl;
};

struct Extractor {
  enum class Type { Regex, Kval } type = Type::Regex;
  Part part = Part::Body;
  std::string name;
  std::vector<std::shared_ptr<const re2::RE2>> regexes;
  int group = 0;
  std::vector<std::string> keys;  // kval: header (or cookie) names, lower case, '-' as '_'
};

// One request before variable expansion: `path` holds {{BaseURL}}-style variables.
struct RequestSpec {
  std::string method = "GET";
  std::string path;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
};

// One element of `http:` — its requests share matchers and extractors.
struct HttpBlock {
  std::vector<RequestSpec> requests;
  std::vector<Matcher> matchers;
  bool matchers_all = false;  // matchers-condition: and
  std::vector<Extractor> extractors;
  bool stop_at_first_match = false;
  int max_redirects = 0;  // 0: redirects are not followed (the format's default)
};

struct Template {
  std::string id;
  std::string file;
  std::string name;
  std::string author;
  audit::Severity severity = audit::Severity::Info;
  std::string description;
  std::string remediation;
  std::vector<std::string> references;
  std::vector<std::string> tags;
  int cwe = 0;
  std::string owasp;  // from the tags and the CWE; empty when none fits
  std::vector<HttpBlock> http;
  std::size_t request_count() const;
};

struct Skipped {
  std::string file;
  std::string id;  // empty when the file did not say
  std::string reason;
};

// Parses one template; throws std::invalid_argument with the reason it cannot be run.
Template parse_template(std::string_view yaml, const std::string& file = "");

struct Library {
  std::vector<Template> loaded;  // in file name order
  std::vector<Skipped> skipped;
};

// Reads every *.yaml / *.yml file under each folder (recursively, sorted; at most
// limits::templates::kTemplates); a later template with an id already loaded is skipped, and so
// is a folder that does not exist. File names are relative to their folder.
Library load_library(const std::vector<std::filesystem::path>& dirs);

// The variables of a target URL: BaseURL, RootURL, Hostname, Host, Port, Path, Scheme.
std::map<std::string, std::string> target_variables(const std::string& target);

// `text` with every {{Name}} replaced; an unknown variable throws std::invalid_argument.
std::string expand(std::string_view text, const std::map<std::string, std::string>& vars);

}  // namespace dozor::scan::templates
