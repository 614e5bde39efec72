#include "engines/net/url_check.hpp"

#include <algorithm>
#include <boost/url/parse.hpp>
#include <boost/url/pct_string_view.hpp>
#include <boost/url/url.hpp>

#include "engines/text/ascii.hpp"
#include "engines/text/utf8.hpp"

namespace dozor::net {
namespace {

// A decoded host name must be text: valid UTF-8 without control characters (NUL included).
bool is_plain_text(std::string_view s) {
  return text::is_valid_utf8(s) &&
         std::none_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; });
}

UrlProblem parsing(const char* why) { return {"url_parsing", std::string("Input should be a valid URL, ") + why}; }

}  // namespace

std::optional<UrlProblem> check_http_url(std::string_view url) {
  if (url.empty()) return parsing("input is empty");
  if (url.size() > kMaxUrlLength) return UrlProblem{"url_too_long", "URL should have at most 2083 characters"};
  auto parsed = boost::urls::parse_uri(url);
  if (!parsed) {
    // A string without a scheme is "relative"; anything else is malformed.
    if (boost::urls::parse_relative_ref(url)) return parsing("relative URL without a base");
    return parsing("invalid international domain name or characters");
  }
  std::string scheme = text::ascii_lower(parsed->scheme());
  if (scheme != "http" && scheme != "https") return UrlProblem{"url_scheme", "URL scheme should be 'http' or 'https'"};
  if (!parsed->has_authority() || parsed->encoded_host().empty()) return parsing("empty host");
  if (parsed->has_userinfo()) return parsing("credentials in the URL are not accepted");
  if (parsed->has_port() && (parsed->port_number() == 0 || parsed->port().size() > 5))
    return parsing("invalid port number");
  if (parsed->host_type() == boost::urls::host_type::name && !is_plain_text(parsed->host_name()))
    return parsing("invalid international domain name or characters");
  // The limit is on what is stored: normalisation may add the "/" of an empty path.
  if (normalize_http_url(url).size() > kMaxUrlLength)
    return UrlProblem{"url_too_long", "URL should have at most 2083 characters"};
  return std::nullopt;
}

std::optional<std::string> tcp_target(std::string_view url, UrlProblem* problem) {
  auto fail = [&](const char* why) -> std::optional<std::string> {
    if (problem) *problem = parsing(why);
    return std::nullopt;
  };
  if (url.size() > kMaxUrlLength) {
    if (problem) *problem = UrlProblem{"url_too_long", "URL should have at most 2083 characters"};
    return std::nullopt;
  }
  auto parsed = boost::urls::parse_uri(url);
  if (!parsed || text::ascii_lower(parsed->scheme()) != "tcp") return fail("tcp:// targets are tcp://host:port");
  if (!parsed->has_authority() || parsed->encoded_host().empty()) return fail("empty host");
  if (parsed->has_userinfo()) return fail("credentials in the URL are not accepted");
  if (!parsed->has_port() || parsed->port_number() == 0 || parsed->port().size() > 5)
    return fail("tcp:// targets need a port 1..65535");
  if ((!parsed->encoded_path().empty() && parsed->encoded_path() != "/") || parsed->has_query() ||
      parsed->has_fragment())
    return fail("tcp:// targets are tcp://host:port, without a path");
  if (parsed->host_type() == boost::urls::host_type::name && !is_plain_text(parsed->host_name()))
    return fail("invalid international domain name or characters");
  boost::urls::url u(*parsed);
  u.normalize_authority();
  return "tcp://" + std::string(u.encoded_authority());
}

TargetUrl parse_target_url(std::string_view raw_tail) {
  if (raw_tail.empty()) return {std::nullopt, parsing("input is empty")};
  if (raw_tail.size() > 3 * kMaxUrlLength)
    return {std::nullopt, UrlProblem{"url_too_long", "URL should have at most 2083 characters"}};
  std::string text(raw_tail);
  // One layer of percent-encoding is the documented form; decode it when the text is valid
  // pct-encoding, so "https%3A%2F%2Fx" and "https://x" mean the same.
  if (text.find('%') != std::string::npos) {
    auto pct = boost::urls::make_pct_string_view(text);
    if (!pct) return {std::nullopt, parsing("invalid percent-encoding")};
    text = pct->decode();
  }
  std::string candidate = text;
  auto colon_slash = text.find("://");
  auto first_sep = text.find_first_of("/?#");
  bool has_scheme = colon_slash != std::string::npos && (first_sep == std::string::npos || colon_slash < first_sep);
  // "https:/x" arrives when a proxy merged the slashes: restore the second one.
  if (!has_scheme) {
    auto c = text.find(":/");
    if (c != std::string::npos && c == text.find_first_of(":/") && (c + 2 >= text.size() || text[c + 2] != '/')) {
      std::string scheme = text::ascii_lower(text.substr(0, c));
      if (scheme == "http" || scheme == "https") {
        candidate = scheme + "://" + text.substr(c + 2);
        has_scheme = true;
      }
    }
  }
  if (!has_scheme) candidate = "https://" + text;
  if (auto problem = check_http_url(candidate)) return {std::nullopt, problem};
  // A bare host must name a host: "batch" (POST /api/v1/audit/batch, a route only /api has) or
  // "services" is a word, not a site, and must not become https://batch/ and a DNS look-up. A
  // bare name needs a dot (example.com) or is an IP address; anything else takes a full URL.
  if (!has_scheme) {
    auto parsed = boost::urls::parse_uri(candidate);
    if (parsed->host_type() == boost::urls::host_type::name && parsed->host_name().find('.') == std::string::npos)
      return {std::nullopt, parsing("a bare word is not a host name; write a domain (example.com) or a full URL "
                                    "(https://name/)")};
  }
  return {normalize_http_url(candidate), std::nullopt};
}

std::string normalize_http_url(std::string_view valid_url) {
  boost::urls::url u(*boost::urls::parse_uri(valid_url));
  u.normalize_scheme();
  u.normalize_authority();
  std::string out(u.buffer());
  if (u.encoded_path().empty())
    out.insert(out.size() - u.encoded_query().size() - (u.has_query() ? 1 : 0) - u.encoded_fragment().size() -
                   (u.has_fragment() ? 1 : 0),
               "/");
  return out;
}

}  // namespace dozor::net
