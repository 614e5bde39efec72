#include "engines/scan/api/jwt.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <sodium.h>

#include <algorithm>
#include <array>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <set>
#include <stdexcept>

#include "engines/audit/data_file.hpp"
#include "engines/auth/jwt.hpp"
#include "engines/limits.hpp"

namespace dozor::api {
namespace {

namespace L = limits::api;

std::optional<boost::json::object> json_object(std::string_view b64) {
  auto text = auth::base64url_decode(b64);
  if (!text) return std::nullopt;
  boost::system::error_code ec;
  boost::json::parse_options opts;
  opts.max_depth = L::kJsonDepth;
  auto v = boost::json::parse(*text, ec, {}, opts);
  if (ec || !v.is_object()) return std::nullopt;
  return std::move(v.as_object());
}

bool b64url_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
}

std::string hmac_sha256(std::string_view key, std::string_view data) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> out{};
  unsigned int len = 0;
  if (!HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), reinterpret_cast<const unsigned char*>(data.data()),
            data.size(), out.data(), &len))
    throw std::runtime_error("HMAC-SHA256 failed");
  return {reinterpret_cast<const char*>(out.data()), len};
}

[[noreturn]] void fail(const std::string& what) { throw std::runtime_error("jwt secrets: " + what); }

}  // namespace

std::optional<Jwt> parse_jwt(std::string_view token) {
  if (token.empty() || token.size() > L::kJwtBytes) return std::nullopt;
  auto first = token.find('.');
  if (first == std::string_view::npos) return std::nullopt;
  auto second = token.find('.', first + 1);
  if (second == std::string_view::npos || token.find('.', second + 1) != std::string_view::npos) return std::nullopt;
  for (char c : token)
    if (c != '.' && !b64url_char(c)) return std::nullopt;
  auto header = json_object(token.substr(0, first));
  if (!header) return std::nullopt;
  auto payload = json_object(token.substr(first + 1, second - first - 1));
  if (!payload) return std::nullopt;
  auto signature = auth::base64url_decode(token.substr(second + 1));
  if (!signature) return std::nullopt;
  Jwt out;
  out.raw = std::string(token);
  out.signing_input = std::string(token.substr(0, second));
  out.signature = std::move(*signature);
  out.header = std::move(*header);
  out.payload = std::move(*payload);
  if (const auto* alg = out.header.if_contains("alg"); alg && alg->is_string()) out.alg = std::string(alg->as_string());
  return out;
}

std::vector<std::string> find_jwts(std::string_view text, std::size_t max) {
  // A JWT's header is a JSON object in base64url: it starts with "eyJ" ('{"').
  std::vector<std::string> out;
  std::set<std::string> seen;
  std::size_t at = 0;
  while (out.size() < max && (at = text.find("eyJ", at)) != std::string_view::npos) {
    if (at > 0 && b64url_char(text[at - 1])) {
      ++at;
      continue;
    }
    auto end = at;
    while (end < text.size() && end - at <= L::kJwtBytes && (b64url_char(text[end]) || text[end] == '.')) ++end;
    auto candidate = text.substr(at, end - at);
    while (!candidate.empty() && candidate.back() == '.' && std::count(candidate.begin(), candidate.end(), '.') > 2)
      candidate.remove_suffix(1);
    if (parse_jwt(candidate) && seen.insert(std::string(candidate)).second) out.emplace_back(candidate);
    at = end;
  }
  return out;
}

std::string forge_none(const Jwt& like) {
  return auth::base64url_encode(R"({"alg":"none","typ":"JWT"})") + "." +
         auth::base64url_encode(boost::json::serialize(like.payload)) + ".";
}

std::string sign_hs256(const boost::json::object& payload, std::string_view secret) {
  auto input = auth::base64url_encode(R"({"alg":"HS256","typ":"JWT"})") + "." +
               auth::base64url_encode(boost::json::serialize(payload));
  return input + "." + auth::base64url_encode(hmac_sha256(secret, input));
}

std::string forge_bad_signature(const Jwt& like) {
  std::array<unsigned char, 32> key{};
  randombytes_buf(key.data(), key.size());
  auto sig = hmac_sha256({reinterpret_cast<const char*>(key.data()), key.size()}, like.signing_input);
  return like.signing_input + "." + auth::base64url_encode(sig);
}

std::optional<std::string> crack_hs256(const Jwt& token, const std::vector<std::string>& secrets) {
  if (token.alg != "HS256" || token.signature.size() != 32) return std::nullopt;
  for (const auto& secret : secrets) {
    auto sig = hmac_sha256(secret, token.signing_input);
    if (CRYPTO_memcmp(sig.data(), token.signature.data(), sig.size()) == 0) return secret;
  }
  return std::nullopt;
}

JwtSecrets JwtSecrets::parse(std::string_view text) {
  JwtSecrets out;
  std::set<std::string> seen;
  std::size_t line_no = 0;
  std::size_t start = 0;
  while (start < text.size()) {
    auto end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string line(text.substr(start, end - start));
    start = end + 1;
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line_no == 1) {
      constexpr std::string_view kHead = "# dozor jwt-secrets ";
      if (line.rfind(kHead, 0) != 0 || line.size() == kHead.size())
        fail("the first line must be '# dozor jwt-secrets <version>'");
      out.version_ = line.substr(kHead.size());
      continue;
    }
    if (!line.empty() && line[0] == '#') continue;
    auto where = " (line " + std::to_string(line_no) + ")";
    if (line.empty()) fail("an empty entry" + where);
    if (line.size() > L::kJwtSecretBytes)
      fail("an entry longer than " + std::to_string(L::kJwtSecretBytes) + " bytes" + where);
    for (char ch : line)
      if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f) fail("a control character" + where);
    if (!seen.insert(line).second) {
      std::string msg = "'";
      msg += line;
      msg += "' is listed twice";
      msg += where;
      fail(msg);
    }
    out.secrets_.push_back(std::move(line));
    if (out.secrets_.size() > L::kJwtSecrets) fail("more than " + std::to_string(L::kJwtSecrets) + " entries");
  }
  if (out.version_.empty()) fail("the first line must be '# dozor jwt-secrets <version>'");
  if (out.secrets_.empty()) fail("no entries");
  return out;
}

JwtSecrets JwtSecrets::load(const std::string& audit_data_dir) {
  return parse(audit::read_data_file(audit_data_dir + "/" + kJwtSecretsFile, "jwt secrets"));
}

}  // namespace dozor::api
