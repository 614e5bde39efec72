#include "engines/scan/oast/oast.hpp"

#include "engines/limits.hpp"
#include "engines/tasks/task_id.hpp"
#include "engines/text/ascii.hpp"

namespace dozor::oast {

Probe new_probe(std::string kind) {
  Probe p;
  p.token = tasks::new_task_id();  // 128 bits from libsodium, base64url
  p.marker = tasks::new_task_id();
  p.kind = std::move(kind);
  return p;
}

bool looks_like_token(std::string_view text) { return tasks::looks_like_task_id(text); }

std::string probe_url(std::string_view base_url, std::string_view token) {
  while (!base_url.empty() && base_url.back() == '/') base_url.remove_suffix(1);
  return std::string(base_url) + "/oast/" + std::string(token);
}

std::optional<std::string> token_of_path(std::string_view raw_path) {
  constexpr std::string_view kPrefix = "/oast/";
  if (raw_path.substr(0, kPrefix.size()) != kPrefix) return std::nullopt;
  auto rest = raw_path.substr(kPrefix.size());
  auto end = rest.find_first_of("/?#");
  auto token = rest.substr(0, end);
  if (!looks_like_token(token)) return std::nullopt;
  return std::string(token);
}

std::string printable(std::string_view text, std::size_t max_chars) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (char c : text) {
    auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u < 0x7f) {
      if (out.size() + 1 > max_chars) break;
      out.push_back(c);
    } else {
      if (out.size() + 4 > max_chars) break;
      out += "\\x";
      out.push_back(kHex[u >> 4]);
      out.push_back(kHex[u & 15]);
    }
  }
  return out;
}

bool kept_header(std::string_view lower_name) {
  // Credentials a browser or client attaches by itself, and Dozor's own (nginx's and the
  // analyzer's X-Dozor-* answers, DOZOR_* parameters as a client could spell them): a scan's hit
  // shows the scanning user what reached /oast/, and that must never be someone else's secret.
  for (std::string_view secret : {"cookie", "cookie2", "authorization", "proxy-authorization"})
    if (lower_name == secret) return false;
  for (std::string_view prefix : {"x-dozor-", "dozor-", "dozor_"})
    if (lower_name.substr(0, prefix.size()) == prefix) return false;
  return true;
}

Hit capture(std::string token, std::string_view source, std::string_view method, std::string_view raw_target,
            const std::vector<std::pair<std::string, std::string>>& headers, std::string_view body) {
  Hit h;
  h.token = std::move(token);
  h.source = printable(source, 64);
  h.method = printable(method, 16);
  h.path = printable(raw_target, limits::oast::kPathChars);
  for (const auto& [name, value] : headers) {
    if (h.headers.size() >= limits::oast::kHeaders) break;
    if (!kept_header(text::ascii_lower(name))) continue;
    h.headers.emplace_back(printable(name, 128), printable(value, limits::oast::kHeaderChars));
  }
  h.body_excerpt = printable(body, limits::oast::kBodyExcerptChars);
  return h;
}

}  // namespace dozor::oast
