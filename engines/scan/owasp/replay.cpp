#include "engines/scan/owasp/replay.hpp"

#include <algorithm>
#include <random>

namespace dozor::owasp {
namespace {

std::string shell_quote(std::string_view s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'')
      out += "'\\''";
    else
      out.push_back(c);
  }
  return out + "'";
}

bool continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

}  // namespace

std::string url_encode(std::string_view s) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (char c : s) {
    auto u = static_cast<unsigned char>(c);
    if ((u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') || c == '-' || c == '.' ||
        c == '_' || c == '~') {
      out.push_back(c);
    } else {
      out.push_back('%');
      out.push_back(kHex[u >> 4]);
      out.push_back(kHex[u & 15]);
    }
  }
  return out;
}

std::string url_with_query(std::string_view base, const std::vector<std::pair<std::string, std::string>>& params) {
  std::string out(base);
  char sep = '?';
  for (const auto& [name, value] : params) {
    out.push_back(sep);
    out += url_encode(name) + "=" + url_encode(value);
    sep = '&';
  }
  return out;
}

std::string curl_command(std::string_view method, std::string_view url, const std::vector<std::string>& headers,
                         std::string_view body) {
  std::string out = "curl -i -s";
  if (!method.empty() && method != "GET") out += " -X " + shell_quote(method);
  for (const auto& h : headers) out += " -H " + shell_quote(h);
  if (!body.empty()) out += " --data-binary " + shell_quote(body);
  return out + " " + shell_quote(url);
}

std::string excerpt_around(std::string_view body, std::size_t offset, std::size_t length, std::size_t chars) {
  offset = std::min(offset, body.size());
  length = std::min(length, body.size() - offset);
  std::size_t context = chars > length ? (chars - length) / 2 : 0;
  std::size_t begin = offset > context ? offset - context : 0;
  std::size_t end = std::min(body.size(), offset + length + context);
  while (begin > 0 && continuation(body[begin])) --begin;
  while (end < body.size() && continuation(body[end])) ++end;
  return std::string(body.substr(begin, end - begin));
}

std::string make_canary() {
  static thread_local std::mt19937_64 rng{std::random_device{}()};
  std::uniform_int_distribution<int> hex(0, 15);
  std::string s = "dzr";
  for (int i = 0; i < 10; ++i) s += "0123456789abcdef"[hex(rng)];
  return s;
}

}  // namespace dozor::owasp
