#include "engines/auth/jwt.hpp"

#include <sodium.h>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>
#include <stdexcept>

#include "engines/auth/crypto.hpp"

namespace dozor::auth {
namespace {

std::optional<std::int64_t> int_claim(const boost::json::object& o, const char* name) {
  auto* v = o.if_contains(name);
  if (!v || !v->is_int64()) return std::nullopt;
  return v->as_int64();
}

}  // namespace

std::string base64url_encode(std::string_view data) {
  std::string out(sodium_base64_encoded_len(data.size(), sodium_base64_VARIANT_URLSAFE_NO_PADDING), '\0');
  if (sodium_bin2base64(out.data(), out.size(), reinterpret_cast<const unsigned char*>(data.data()), data.size(),
                        sodium_base64_VARIANT_URLSAFE_NO_PADDING) == nullptr)
    throw std::runtime_error("base64 encoding failed");
  out.resize(std::char_traits<char>::length(out.c_str()));
  return out;
}

std::optional<std::string> base64url_decode(std::string_view text) {
  std::string out(text.size(), '\0');
  std::size_t len = 0;
  const char* end = nullptr;
  if (sodium_base642bin(reinterpret_cast<unsigned char*>(out.data()), out.size(), text.data(), text.size(), nullptr,
                        &len, &end, sodium_base64_VARIANT_URLSAFE_NO_PADDING) != 0 ||
      end != text.data() + text.size())
    return std::nullopt;
  out.resize(len);
  return out;
}

std::string sign_hs256(const boost::json::object& payload, std::string_view key) {
  static const std::string header = base64url_encode(R"({"alg":"HS256","typ":"JWT"})");
  std::string signing_input = header + "." + base64url_encode(boost::json::serialize(payload));
  auto mac = crypto::hmac_sha256(key, signing_input);
  if (!mac) throw std::runtime_error("cannot sign the token: HMAC failed");
  return signing_input + "." + base64url_encode(*mac);
}

std::optional<boost::json::object> verify_hs256(std::string_view token, std::string_view key, std::size_t max_bytes) {
  if (token.size() > max_bytes) return std::nullopt;
  auto d1 = token.find('.');
  auto d2 = d1 == std::string_view::npos ? d1 : token.find('.', d1 + 1);
  if (d2 == std::string_view::npos || token.find('.', d2 + 1) != std::string_view::npos) return std::nullopt;
  auto header = base64url_decode(token.substr(0, d1));
  auto payload = base64url_decode(token.substr(d1 + 1, d2 - d1 - 1));
  auto signature = base64url_decode(token.substr(d2 + 1));
  if (!header || !payload || !signature) return std::nullopt;

  boost::system::error_code ec;
  auto h = boost::json::parse(*header, ec);
  if (ec || !h.is_object()) return std::nullopt;
  auto* alg = h.as_object().if_contains("alg");
  if (!alg || !alg->is_string() || alg->as_string() != "HS256") return std::nullopt;

  // A failed HMAC refuses the token; it is never compared as an empty MAC.
  auto expected = crypto::hmac_sha256(key, token.substr(0, d2));
  if (!expected || !crypto::equal_constant_time(*signature, *expected)) return std::nullopt;

  auto p = boost::json::parse(*payload, ec);
  if (ec || !p.is_object()) return std::nullopt;
  return std::move(p.as_object());
}

std::string sign_jwt(const Claims& c, std::string_view key) {
  return sign_hs256({{"sub", std::to_string(c.sub)},
                     {"name", c.name},
                     {"adm", c.adm},
                     {"iat", c.iat},
                     {"exp", c.exp},
                     {"ver", c.ver}},
                    key);
}

std::optional<Claims> verify_jwt(std::string_view token, std::string_view key, std::int64_t now) {
  auto payload = verify_hs256(token, key, 4096);
  if (!payload) return std::nullopt;
  const auto& o = *payload;
  Claims c;
  auto* sub = o.if_contains("sub");
  auto* name = o.if_contains("name");
  auto* adm = o.if_contains("adm");
  auto iat = int_claim(o, "iat");
  auto exp = int_claim(o, "exp");
  auto ver = int_claim(o, "ver");
  if (!sub || !sub->is_string() || !name || !name->is_string() || !adm || !adm->is_bool() || !iat || !exp || !ver)
    return std::nullopt;
  try {
    std::size_t used = 0;
    std::string s(sub->as_string());
    c.sub = std::stoll(s, &used);
    if (used != s.size()) return std::nullopt;
  } catch (...) {
    return std::nullopt;
  }
  c.name = std::string(name->as_string());
  c.adm = adm->as_bool();
  c.iat = *iat;
  c.exp = *exp;
  c.ver = *ver;
  if (c.exp <= now) return std::nullopt;
  return c;
}

}  // namespace dozor::auth
