#include "engines/scan/owasp/response_diff.hpp"

#include <algorithm>
#include <map>
#include <vector>

#include "engines/scan/owasp/replay.hpp"

namespace dozor::owasp {
namespace {

std::map<std::string, int> tokens(std::string_view s) {
  std::map<std::string, int> out;
  std::string cur;
  for (char c : s) {
    auto u = static_cast<unsigned char>(c);
    if ((u >= '0' && u <= '9') || (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || u >= 0x80 || c == '_') {
      cur.push_back(c);
    } else if (!cur.empty()) {
      ++out[cur];
      cur.clear();
    }
  }
  if (!cur.empty()) ++out[cur];
  return out;
}

void erase_all(std::string& s, const std::string& what) {
  if (what.empty()) return;
  for (auto at = s.find(what); at != std::string::npos; at = s.find(what, at)) s.erase(at, what.size());
}

std::string html_escape(std::string_view s, bool hex_apos) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += hex_apos ? "&#x27;" : "&#39;"; break;
      default: out.push_back(c);
    }
  }
  return out;
}

}  // namespace

double similarity(std::string_view a, std::string_view b) {
  auto ta = tokens(a), tb = tokens(b);
  long na = 0, nb = 0, common = 0;
  for (const auto& [t, n] : ta) na += n;
  for (const auto& [t, n] : tb) {
    nb += n;
    auto it = ta.find(t);
    if (it != ta.end()) common += std::min(n, it->second);
  }
  if (na + nb == 0) return 1.0;
  return 2.0 * static_cast<double>(common) / static_cast<double>(na + nb);
}

std::string strip_echoes(std::string_view body, std::string_view payload) {
  std::string out(body);
  std::string p(payload);
  for (const auto& form : {html_escape(p, true), html_escape(p, false), url_encode(p), p}) erase_all(out, form);
  return out;
}

}  // namespace dozor::owasp
