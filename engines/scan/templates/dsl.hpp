#pragma once
// The `dsl` matcher subset of the template scanner (docs/audit.md "Template scanner"). An
// expression is parsed once at load time; anything outside the subset is a parse error, which
// makes the template skipped — never half-run.
//
// Subset: literals (integers, "…" or '…' strings, true, false); variables status_code,
// content_length, body, header (= all_headers), all_headers, response (heads and body);
// functions len(s), contains(s, t), contains_any(s, t…), contains_all(s, t…), starts_with(s, t…),
// ends_with(s, t…), regex(pattern, s) (RE2), tolower(s), toupper(s); operators ! && || == != < <=
// > >= and parentheses. Comparisons of integers, == and != of strings; && || ! need booleans.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <variant>

namespace dozor::scan::templates {

// What a dsl expression (and a matcher) reads of one answer.
struct Response {
  int status = 0;
  std::string headers;  // "Name: value\r\n" per field, canonical case
  std::string body;
  std::string all() const { return headers + "\r\n" + body; }
};

class DslExpr {
 public:
  struct Node;
  // Throws std::invalid_argument with the reason when `text` is outside the subset.
  static DslExpr parse(std::string_view text);
  // True when the expression is a true boolean for `r`; a type error at run time is false.
  bool eval(const Response& r) const;
  const std::string& text() const { return text_; }

 private:
  std::shared_ptr<const Node> root_;
  std::string text_;
};

}  // namespace dozor::scan::templates
