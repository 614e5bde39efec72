#include "engines/scan/auth/default_credentials.hpp"

#include <set>
#include <stdexcept>

#include "engines/audit/data_file.hpp"
#include "engines/limits.hpp"

namespace dozor::authscan {
namespace {

[[noreturn]] void fail(const std::string& what) { throw std::runtime_error("default credentials: " + what); }

std::string string_member(const boost::json::object& o, const char* key, const std::string& where) {
  const auto* v = o.if_contains(key);
  if (!v || !v->is_string() || v->as_string().empty()) fail(where + ": '" + key + "' must be a non-empty string");
  return std::string(v->as_string());
}

const boost::json::array& array_member(const boost::json::object& o, const char* key, const std::string& where) {
  const auto* v = o.if_contains(key);
  if (!v || !v->is_array() || v->as_array().empty()) fail(where + ": '" + key + "' must be a non-empty array");
  return v->as_array();
}

bool plain_path(const std::string& p) {
  if (p.empty() || p[0] != '/' || p.size() > 200 || p.find("..") != std::string::npos) return false;
  for (char ch : p) {
    auto c = static_cast<unsigned char>(ch);
    if (c <= 0x20 || c >= 0x7f || c == '#') return false;
  }
  return true;
}

Panel parse_panel(const boost::json::value& v, std::size_t index) {
  std::string where = "panel " + std::to_string(index);
  if (!v.is_object()) fail(where + " is not an object");
  const auto& o = v.as_object();
  Panel p;
  p.technology = string_member(o, "technology", where);
  p.name = string_member(o, "name", where);
  for (const auto& path : array_member(o, "login_paths", where)) {
    if (!path.is_string() || !plain_path(std::string(path.as_string())))
      fail(where + ": a login path is not a plain absolute path");
    p.login_paths.emplace_back(path.as_string());
  }
  const auto& pairs = array_member(o, "credentials", where);
  if (pairs.size() > limits::auth::kDefaultTriesPerPanel)
    fail(where + ": more than " + std::to_string(limits::auth::kDefaultTriesPerPanel) + " credential pairs");
  for (const auto& pair : pairs) {
    const auto* a = pair.if_array();
    if (!a || a->size() != 2 || !(*a)[0].is_string() || !(*a)[1].is_string() || (*a)[0].as_string().empty())
      fail(where + ": a credential is not [\"user\", \"password\"]");
    p.credentials.emplace_back(std::string((*a)[0].as_string()), std::string((*a)[1].as_string()));
  }
  return p;
}

}  // namespace

DefaultCredentials DefaultCredentials::parse(std::string_view json) {
  auto root = audit::parse_data_object(json, "default credentials");
  DefaultCredentials out;
  out.version_ = string_member(root, "version", "file");
  const auto& panels = array_member(root, "panels", "file");
  if (panels.size() > limits::auth::kPanels) fail("more than " + std::to_string(limits::auth::kPanels) + " panels");
  std::set<std::string> seen;
  for (std::size_t i = 0; i < panels.size(); ++i) {
    auto p = parse_panel(panels[i], i);
    if (!seen.insert(p.technology).second) fail("'" + p.technology + "' is listed twice");
    out.panels_.push_back(std::move(p));
  }
  return out;
}

DefaultCredentials DefaultCredentials::load(const std::string& audit_data_dir) {
  return parse(audit::read_data_file(audit_data_dir + "/" + kDefaultCredentialsFile, "default credentials"));
}

const Panel* DefaultCredentials::find(std::string_view technology) const {
  for (const auto& p : panels_)
    if (p.technology == technology) return &p;
  return nullptr;
}

}  // namespace dozor::authscan
