#include "engines/secrets.hpp"

#include <array>
#include <boost/url/parse.hpp>
#include <boost/url/url.hpp>
#include <cctype>

namespace dozor::secrets {

bool is_secret_name(std::string_view name) {
  std::string n;
  for (char c : name) {
    unsigned char u = static_cast<unsigned char>(c);
    if (std::isalnum(u)) n += static_cast<char>(std::tolower(u));
  }
  // Whole words that are secrets by themselves, then fragments that make a name secret wherever
  // they appear ("bot_token", "smtp_password", "x_api_key").
  static constexpr std::array<std::string_view, 6> kWhole = {"key", "pass", "auth", "pin", "otp", "session"};
  static constexpr std::array<std::string_view, 13> kPart = {
      "password",   "passwd",        "passphrase", "token",      "bearer",    "secret",   "apikey",
      "privatekey", "authorization", "cookie",     "credential", "sessionid", "accesskey"};
  for (auto w : kWhole)
    if (n == w) return true;
  for (auto p : kPart)
    if (n.find(p) != std::string::npos) return true;
  return false;
}

std::string mask(std::string_view value) {
  // Only the tail, and only when the value is long enough that two characters reveal little.
  if (value.size() < 8) return "****";
  return "****" + std::string(value.substr(value.size() - 2));
}

bool is_masked(std::string_view value) { return value.rfind("****", 0) == 0 && value.size() <= 6; }

std::optional<std::string> mask_url_userinfo(std::string_view url) {
  auto parsed = boost::urls::parse_uri(url);
  if (!parsed || !parsed->has_userinfo()) return std::nullopt;
  boost::urls::url u(*parsed);
  if (u.has_password())
    u.set_password(mask(u.password()));
  else
    u.set_user(mask(u.user()));
  return std::string(u.buffer());
}

bool has_masked_userinfo(std::string_view url) {
  auto parsed = boost::urls::parse_uri(url);
  if (!parsed || !parsed->has_userinfo()) return false;
  return is_masked(parsed->has_password() ? parsed->password() : parsed->user());
}

boost::json::value mask_json(const boost::json::value& v) {
  if (v.is_string()) {
    if (auto masked = mask_url_userinfo(v.get_string())) return boost::json::string(*masked);
    return v;
  }
  if (v.is_object()) {
    boost::json::object out;
    for (const auto& [k, member] : v.as_object()) {
      if (!is_secret_name(k))
        out[k] = mask_json(member);
      else if (member.is_string())
        out[k] = mask(member.as_string());
      else if (member.is_null())
        out[k] = nullptr;  // no secret set: nothing to hide
      else
        out[k] = "****";
    }
    return out;
  }
  if (v.is_array()) {
    boost::json::array out;
    for (const auto& item : v.as_array()) out.push_back(mask_json(item));
    return out;
  }
  return v;
}

}  // namespace dozor::secrets
