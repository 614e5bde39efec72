#pragma once
// Matchers and extractors of the template scanner on one answer (docs/audit.md "Template scanner").
#include <string>
#include <vector>

#include "engines/net/multi_fetch.hpp"
#include "engines/scan/templates/template.hpp"

namespace dozor::scan::templates {

// The answer's header fields as "Name: value\r\n" lines, names in canonical case
// ("x-powered-by" → "X-Powered-By"): the client keeps names in lower case.
std::string header_text(const std::vector<net::HeaderField>& fields);

// One matcher; `excerpt` gets the matched text (a word, a regex match, the status) when it matched.
bool matches(const Matcher& m, const Response& r, std::string* excerpt = nullptr);

// kval reads `fields` (headers and Set-Cookie names); regex reads the matcher's part.
std::vector<std::string> extract(const Extractor& x, const Response& r, const std::vector<net::HeaderField>& fields);

struct BlockOutcome {
  bool matched = false;
  std::string excerpt;                 // what proved it, bounded
  std::vector<std::string> extracted;  // "name=value" or the value, at most kExtractedValues
};

// The block's matchers (matchers-condition) and extractors on one answer. A block without
// matchers matches when an extractor found something.
BlockOutcome evaluate(const HttpBlock& b, const Response& r, const std::vector<net::HeaderField>& fields);

}  // namespace dozor::scan::templates
