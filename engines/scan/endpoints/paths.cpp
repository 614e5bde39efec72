#include "engines/scan/endpoints/paths.hpp"

#include <set>
#include <stdexcept>

#include "engines/audit/data_file.hpp"
#include "engines/limits.hpp"

namespace dozor::endpoints {
namespace {

[[noreturn]] void fail(const std::string& what) { throw std::runtime_error("endpoint paths: " + what); }

std::vector<std::string> path_list(const boost::json::object& root, const char* key, std::size_t max) {
  const auto* list = root.if_contains(key);
  if (!list || !list->is_array() || list->as_array().empty())
    fail(std::string("'") + key + "' must be a non-empty array");
  if (list->as_array().size() > max) fail(std::string("'") + key + "' has more than " + std::to_string(max) + " paths");
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (const auto& item : list->as_array()) {
    if (!item.is_string()) fail(std::string("'") + key + "' holds a non-string");
    std::string p(item.as_string());
    bool bad_char = false;
    for (char ch : p) {
      auto c = static_cast<unsigned char>(ch);
      if (c <= 0x20 || c >= 0x7f || c == '#' || c == '?') bad_char = true;
    }
    if (p.empty() || p[0] != '/' || p.size() > 200 || bad_char || p.find("..") != std::string::npos)
      fail("'" + p + "' is not a plain absolute path");
    if (!seen.insert(p).second) fail("'" + p + "' is listed twice");
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace

Paths Paths::parse(std::string_view json) {
  auto root = audit::parse_data_object(json, "endpoint paths");
  Paths out;
  const auto* version = root.if_contains("version");
  if (!version || !version->is_string() || version->as_string().empty()) fail("'version' must be a non-empty string");
  out.version_ = std::string(version->as_string());
  out.documents_ = path_list(root, "documents", limits::endpoints::kDocumentPaths);
  out.wordlist_ = path_list(root, "wordlist", limits::endpoints::kWordlistPaths);
  return out;
}

Paths Paths::load(const std::string& audit_data_dir) {
  return parse(audit::read_data_file(audit_data_dir + "/" + kPathsFile, "endpoint paths"));
}

}  // namespace dozor::endpoints
