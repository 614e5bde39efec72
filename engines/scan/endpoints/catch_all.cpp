#include "engines/scan/endpoints/catch_all.hpp"

#include <algorithm>

#include "engines/limits.hpp"
#include "engines/scan/owasp/response_diff.hpp"

namespace dozor::endpoints {
namespace {

// `text` with the echoes of `path` (as sent, escaped, encoded) replaced by nothing; also the path
// without its leading slash, which pages often print.
std::string without_path(std::string_view text, std::string_view path) {
  std::string out = owasp::strip_echoes(text, path);
  if (path.size() > 1) out = owasp::strip_echoes(out, path.substr(1));
  return out;
}

bool resembles(const Answer& hit, const Answer& base) {
  if (hit.status != base.status) return false;
  if (hit.status >= 300 && hit.status < 400)
    return without_path(hit.location, hit.path) == without_path(base.location, base.path);
  auto a = without_path(hit.body, hit.path), b = without_path(base.body, base.path);
  return owasp::similarity(a, b) >= limits::endpoints::kCatchAllSimilarity;
}

}  // namespace

bool status_says_exists(int status) {
  return (status >= 200 && status < 400) || status == 401 || status == 403 || status == 405;
}

bool is_endpoint(const Answer& hit, const std::vector<Answer>& catch_all) {
  if (!status_says_exists(hit.status)) return false;
  return std::none_of(catch_all.begin(), catch_all.end(), [&](const Answer& b) { return resembles(hit, b); });
}

bool catch_all_detected(const std::vector<Answer>& catch_all) {
  return std::any_of(catch_all.begin(), catch_all.end(), [](const Answer& a) { return status_says_exists(a.status); });
}

}  // namespace dozor::endpoints
