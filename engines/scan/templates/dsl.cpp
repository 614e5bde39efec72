#include "engines/scan/templates/dsl.hpp"

#include <re2/re2.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <stdexcept>
#include <vector>

#include "engines/limits.hpp"

namespace dozor::scan::templates {

using Value = std::variant<std::int64_t, std::string, bool>;

struct DslExpr::Node {
  enum class Kind { Literal, Var, Call, Not, Binary } kind = Kind::Literal;
  Value literal;
  std::string name;  // variable, function or operator
  std::vector<std::shared_ptr<const Node>> args;
  std::shared_ptr<const re2::RE2> regex;  // regex(): compiled at parse time
};

namespace {

using Node = DslExpr::Node;
using NodePtr = std::shared_ptr<const Node>;

constexpr std::array<std::string_view, 6> kVariables = {"status_code", "content_length", "body",
                                                        "header",      "all_headers",    "response"};
constexpr std::array<std::string_view, 9> kFunctions = {
    "len", "contains", "contains_any", "contains_all", "starts_with", "ends_with", "regex", "tolower", "toupper"};

struct Token {
  enum class Kind { Int, Str, Ident, Op, LParen, RParen, Comma, End } kind = Kind::End;
  std::string text;
};

[[noreturn]] void fail(const std::string& why) { throw std::invalid_argument("dsl: " + why); }

std::vector<Token> tokenize(std::string_view s) {
  std::vector<Token> out;
  std::size_t i = 0;
  while (i < s.size()) {
    char c = s[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      std::size_t j = i;
      while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) ++j;
      if (j - i > 15) fail("integer too long");
      out.push_back({Token::Kind::Int, std::string(s.substr(i, j - i))});
      i = j;
    } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      std::size_t j = i;
      while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '_')) ++j;
      out.push_back({Token::Kind::Ident, std::string(s.substr(i, j - i))});
      i = j;
    } else if (c == '"' || c == '\'') {
      std::string text;
      std::size_t j = i + 1;
      for (;; ++j) {
        if (j >= s.size()) fail("unterminated string");
        if (s[j] == c) break;
        if (s[j] == '\\' && j + 1 < s.size()) {
          char n = s[++j];
          text += n == 'n' ? '\n' : n == 'r' ? '\r' : n == 't' ? '\t' : n;
        } else {
          text += s[j];
        }
      }
      out.push_back({Token::Kind::Str, std::move(text)});
      i = j + 1;
    } else if (c == '(') {
      out.push_back({Token::Kind::LParen, "("});
      ++i;
    } else if (c == ')') {
      out.push_back({Token::Kind::RParen, ")"});
      ++i;
    } else if (c == ',') {
      out.push_back({Token::Kind::Comma, ","});
      ++i;
    } else {
      static const std::vector<std::string_view> ops = {"&&", "||", "==", "!=", "<=", ">=", "<", ">", "!"};
      auto it = std::find_if(ops.begin(), ops.end(), [&](std::string_view op) { return s.substr(i).starts_with(op); });
      if (it == ops.end()) fail("unsupported character '" + std::string(1, c) + "'");
      out.push_back({Token::Kind::Op, std::string(*it)});
      i += it->size();
    }
  }
  out.push_back({Token::Kind::End, ""});
  return out;
}

class Parser {
 public:
  explicit Parser(std::vector<Token> t) : t_(std::move(t)) {}

  NodePtr parse() {
    auto n = or_expr();
    if (peek().kind != Token::Kind::End) fail("unexpected '" + peek().text + "'");
    return n;
  }

 private:
  const Token& peek() const { return t_[pos_]; }
  Token take() { return t_[pos_++]; }
  bool op(std::string_view o) {
    if (peek().kind == Token::Kind::Op && peek().text == o) {
      ++pos_;
      return true;
    }
    return false;
  }
  void enter() {
    if (++depth_ > limits::templates::kDslDepth) fail("nested too deeply");
  }

  static NodePtr binary(std::string o, NodePtr l, NodePtr r) {
    auto n = std::make_shared<Node>();
    n->kind = Node::Kind::Binary;
    n->name = std::move(o);
    n->args = {std::move(l), std::move(r)};
    return n;
  }

  NodePtr or_expr() {
    auto l = and_expr();
    while (op("||")) l = binary("||", l, and_expr());
    return l;
  }
  NodePtr and_expr() {
    auto l = comparison();
    while (op("&&")) l = binary("&&", l, comparison());
    return l;
  }
  NodePtr comparison() {
    auto l = unary();
    for (std::string_view o : {"==", "!=", "<=", ">=", "<", ">"})
      if (op(o)) return binary(std::string(o), l, unary());
    return l;
  }
  NodePtr unary() {
    if (op("!")) {
      enter();
      auto n = std::make_shared<Node>();
      n->kind = Node::Kind::Not;
      n->args = {unary()};
      --depth_;
      return n;
    }
    return primary();
  }
  NodePtr primary() {
    Token t = take();
    auto n = std::make_shared<Node>();
    switch (t.kind) {
      case Token::Kind::Int: n->literal = static_cast<std::int64_t>(std::stoll(t.text)); return n;
      case Token::Kind::Str: n->literal = t.text; return n;
      case Token::Kind::LParen: {
        enter();
        auto inner = or_expr();
        if (take().kind != Token::Kind::RParen) fail("missing ')'");
        --depth_;
        return inner;
      }
      case Token::Kind::Ident: break;
      default: fail(t.kind == Token::Kind::End ? "unexpected end" : "unexpected '" + t.text + "'");
    }
    if (t.text == "true" || t.text == "false") {
      n->literal = t.text == "true";
      return n;
    }
    if (peek().kind != Token::Kind::LParen) {
      if (std::find(kVariables.begin(), kVariables.end(), t.text) == kVariables.end())
        fail("unsupported variable '" + t.text + "'");
      n->kind = Node::Kind::Var;
      n->name = t.text;
      return n;
    }
    if (std::find(kFunctions.begin(), kFunctions.end(), t.text) == kFunctions.end())
      fail("unsupported function '" + t.text + "'");
    take();  // (
    enter();
    n->kind = Node::Kind::Call;
    n->name = t.text;
    if (peek().kind != Token::Kind::RParen) {
      n->args.push_back(or_expr());
      while (peek().kind == Token::Kind::Comma) {
        take();
        n->args.push_back(or_expr());
      }
    }
    if (take().kind != Token::Kind::RParen) fail("missing ')' after the arguments of " + t.text);
    --depth_;
    std::size_t argc = n->args.size();
    bool one = t.text == "len" || t.text == "tolower" || t.text == "toupper";
    bool two = t.text == "contains" || t.text == "regex";
    if ((one && argc != 1) || (two && argc != 2) || (!one && !two && argc < 2))
      fail("wrong number of arguments to " + t.text);
    if (t.text == "regex") {
      const auto* pattern = std::get_if<std::string>(&n->args[0]->literal);
      if (n->args[0]->kind != Node::Kind::Literal || !pattern) fail("regex() needs a literal pattern");
      auto re = std::make_shared<re2::RE2>(*pattern, re2::RE2::Quiet);
      if (!re->ok()) fail("regex(): " + re->error());
      n->regex = std::move(re);
    }
    return n;
  }

  std::vector<Token> t_;
  std::size_t pos_ = 0;
  std::size_t depth_ = 0;
};

struct TypeError {};

const std::string& str(const Value& v) {
  if (const auto* s = std::get_if<std::string>(&v)) return *s;
  throw TypeError{};
}

Value eval_node(const Node& n, const Response& r) {
  switch (n.kind) {
    case Node::Kind::Literal: return n.literal;
    case Node::Kind::Var:
      if (n.name == "status_code") return std::int64_t{r.status};
      if (n.name == "content_length") return static_cast<std::int64_t>(r.body.size());
      if (n.name == "body") return r.body;
      if (n.name == "response") return r.all();
      return r.headers;
    case Node::Kind::Not: {
      auto v = eval_node(*n.args[0], r);
      if (const auto* b = std::get_if<bool>(&v)) return !*b;
      throw TypeError{};
    }
    case Node::Kind::Binary: {
      if (n.name == "&&" || n.name == "||") {
        auto l = eval_node(*n.args[0], r);
        const auto* lb = std::get_if<bool>(&l);
        if (!lb) throw TypeError{};
        if (n.name == "&&" && !*lb) return false;
        if (n.name == "||" && *lb) return true;
        auto rv = eval_node(*n.args[1], r);
        const auto* rb = std::get_if<bool>(&rv);
        if (!rb) throw TypeError{};
        return *rb;
      }
      auto l = eval_node(*n.args[0], r), rv = eval_node(*n.args[1], r);
      if (l.index() != rv.index()) throw TypeError{};
      if (n.name == "==") return l == rv;
      if (n.name == "!=") return l != rv;
      const auto* li = std::get_if<std::int64_t>(&l);
      const auto* ri = std::get_if<std::int64_t>(&rv);
      if (!li || !ri) throw TypeError{};
      if (n.name == "<") return *li < *ri;
      if (n.name == "<=") return *li <= *ri;
      if (n.name == ">") return *li > *ri;
      return *li >= *ri;
    }
    case Node::Kind::Call: break;
  }
  std::vector<Value> a;
  for (const auto& arg : n.args) a.push_back(eval_node(*arg, r));
  if (n.name == "len") return static_cast<std::int64_t>(str(a[0]).size());
  if (n.name == "tolower" || n.name == "toupper") {
    std::string s = str(a[0]);
    for (auto& c : s)
      c = static_cast<char>(n.name == "tolower" ? std::tolower(static_cast<unsigned char>(c))
                                                : std::toupper(static_cast<unsigned char>(c)));
    return s;
  }
  if (n.name == "regex") return re2::RE2::PartialMatch(str(a[1]), *n.regex);
  const std::string& s = str(a[0]);
  auto test = [&](const std::string& t) {
    if (n.name == "starts_with") return s.starts_with(t);
    if (n.name == "ends_with") return s.ends_with(t);
    return s.find(t) != std::string::npos;
  };
  if (n.name == "contains_all") {
    for (std::size_t i = 1; i < a.size(); ++i)
      if (!test(str(a[i]))) return false;
    return true;
  }
  for (std::size_t i = 1; i < a.size(); ++i)  // contains, contains_any, starts_with, ends_with: any
    if (test(str(a[i]))) return true;
  return false;
}

}  // namespace

DslExpr DslExpr::parse(std::string_view text) {
  if (text.size() > limits::templates::kDslChars) fail("expression too long");
  DslExpr e;
  e.root_ = Parser(tokenize(text)).parse();
  e.text_ = std::string(text);
  return e;
}

bool DslExpr::eval(const Response& r) const {
  if (!root_) return false;
  try {
    auto v = eval_node(*root_, r);
    const auto* b = std::get_if<bool>(&v);
    return b && *b;
  } catch (const TypeError&) {
    return false;
  }
}

}  // namespace dozor::scan::templates
