#include "fcgi/request.hpp"

#include <boost/url/parse.hpp>
#include <boost/url/url_view.hpp>

namespace dozor::http {

std::optional<std::string> Request::header(std::string_view name) const {
  auto it = headers.find(std::string(name));
  if (it == headers.end()) return std::nullopt;
  return it->second;
}

std::optional<std::string> Request::query_param(std::string_view name) const {
  for (const auto& [k, v] : query)
    if (k == name) return v;
  return std::nullopt;
}

bool parse_target(std::string_view raw_view, Request& out) {
  // `raw_view` may point into out.raw_target itself: own the text before touching `out`.
  out.raw_target = std::string(raw_view);
  std::string_view raw = out.raw_target;
  auto parsed = boost::urls::parse_origin_form(raw);
  if (!parsed) {
    // Unencoded URLs in {target_url} (e.g. "/api/audit/https://x/a?b") are valid relative refs
    // only in origin form; fall back to a plain split so the router still sees the raw path.
    auto q = raw.find('?');
    out.raw_path = std::string(raw.substr(0, q));
    out.query.clear();
    return !out.raw_path.empty() && out.raw_path.front() == '/';
  }
  out.raw_path = std::string(parsed->encoded_path());
  out.query.clear();
  for (auto param : parsed->params()) out.query.emplace_back(param.key, param.has_value ? param.value : "");
  return true;
}

std::map<std::string, std::string> parse_cookies(std::string_view header) {
  std::map<std::string, std::string> out;
  while (!header.empty()) {
    auto semi = header.find(';');
    auto part = header.substr(0, semi);
    header = semi == std::string_view::npos ? std::string_view{} : header.substr(semi + 1);
    while (!part.empty() && part.front() == ' ') part.remove_prefix(1);
    auto eq = part.find('=');
    if (eq == std::string_view::npos || eq == 0) continue;
    out.emplace(std::string(part.substr(0, eq)), std::string(part.substr(eq + 1)));
  }
  return out;
}

std::string bearer_token(const Request& req) {
  auto h = req.header("authorization");
  if (!h || h->size() < 7) return {};
  std::string scheme = h->substr(0, 7);
  for (auto& c : scheme) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (scheme != "bearer ") return {};
  auto token = h->substr(7);
  auto b = token.find_first_not_of(' ');
  return b == std::string::npos ? std::string() : token.substr(b);
}

}  // namespace dozor::http
