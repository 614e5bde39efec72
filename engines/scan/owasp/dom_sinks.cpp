#include "engines/scan/owasp/dom_sinks.hpp"

#include <re2/re2.h>

#include <cctype>
#include <map>
#include <set>

#include "engines/text/ascii.hpp"

namespace dozor::owasp {
namespace {

const re2::RE2& sink_re() {
  static const re2::RE2 re(
      R"((\.\s*(?:innerHTML|outerHTML)\s*\+?=|document\s*\.\s*write(?:ln)?\s*\(|\.\s*insertAdjacentHTML\s*\()"
      R"(|\beval\s*\(|\bnew\s+Function\s*\(|\.\s*html\s*\())");
  return re;
}

const re2::RE2& source_re() {
  static const re2::RE2 re(
      R"(((?:document\s*\.\s*|window\s*\.\s*)?location\s*\.\s*(?:hash|search|href)|document\s*\.\s*(?:URL|documentURI|baseURI|referrer)|window\s*\.\s*name)\b)");
  return re;
}

const re2::RE2& sanitiser_re() {
  static const re2::RE2 re(
      R"(\b(?:DOMPurify\s*\.\s*sanitize|encodeURIComponent|encodeURI|escapeHtml|escapeHTML|_\.escape|he\.encode|sanitize\w*)\s*\()");
  return re;
}

const re2::RE2& assignment_re() {
  static const re2::RE2 re(R"(^\s*(?:(?:var|let|const)\s+)?([A-Za-z_$][\w$]*)\s*=[^=])");
  return re;
}

std::string squeeze(std::string_view s) {
  std::string out;
  for (char c : s)
    if (c != ' ' && c != '\t' && c != '\r' && c != '\n') out.push_back(c);
  return out;
}

std::string trimmed(std::string_view s) { return std::string(text::trim_space(s).substr(0, kStatementChars)); }

bool is_ident(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }

// The first of `names` that appears as a whole identifier in `text`.
std::string mentions(std::string_view text, const std::set<std::string>& names) {
  for (const auto& n : names)
    for (auto at = text.find(n); at != std::string_view::npos; at = text.find(n, at + 1)) {
      bool left = at == 0 || (!is_ident(text[at - 1]) && text[at - 1] != '.');
      bool right = at + n.size() >= text.size() || !is_ident(text[at + n.size()]);
      if (left && right) return n;
    }
  return {};
}

// Statements split at ';' and line ends (a rough cut that is enough for a one-statement flow).
std::vector<std::string_view> statements(std::string_view script) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= script.size(); ++i)
    if (i == script.size() || script[i] == ';' || script[i] == '\n') {
      if (i > start) out.push_back(script.substr(start, i - start));
      start = i + 1;
    }
  return out;
}

}  // namespace

std::vector<DomFlow> dom_flows(std::string_view script) {
  std::vector<DomFlow> out;
  std::set<std::string> tainted;
  std::map<std::string, std::string> tainted_source;
  for (auto stmt : statements(script)) {
    re2::StringPiece sink;
    re2::StringPiece text(stmt.data(), stmt.size());
    bool has_sink = sink_re().Match(text, 0, text.size(), re2::RE2::UNANCHORED, &sink, 1);
    std::string_view after =
        has_sink ? stmt.substr(static_cast<std::size_t>(sink.data() + sink.size() - stmt.data())) : std::string_view{};
    if (has_sink) {
      re2::StringPiece src;
      re2::StringPiece rest(after.data(), after.size());
      bool sanitised = re2::RE2::PartialMatch(rest, sanitiser_re());
      if (!sanitised && source_re().Match(rest, 0, rest.size(), re2::RE2::UNANCHORED, &src, 1)) {
        out.push_back({squeeze(std::string_view(src.data(), src.size())),
                       squeeze(std::string_view(sink.data(), sink.size())), trimmed(stmt), ""});
        continue;
      }
      if (!sanitised) {
        auto var = mentions(after, tainted);
        if (!var.empty()) {
          out.push_back({tainted_source[var], squeeze(std::string_view(sink.data(), sink.size())), trimmed(stmt), var});
          continue;
        }
      }
    }
    std::string name;
    if (re2::RE2::PartialMatch(text, assignment_re(), &name)) {
      re2::StringPiece src;
      if (!re2::RE2::PartialMatch(text, sanitiser_re()) &&
          source_re().Match(text, 0, text.size(), re2::RE2::UNANCHORED, &src, 1)) {
        tainted.insert(name);
        tainted_source[name] = squeeze(std::string_view(src.data(), src.size()));
      } else {
        tainted.erase(name);  // reassigned from something else
      }
    }
  }
  return out;
}

}  // namespace dozor::owasp
