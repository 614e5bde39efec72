#include "engines/net/unreachable.hpp"

#include <boost/url/parse.hpp>
#include <boost/url/url.hpp>

namespace dozor::net {

bool never_answered(std::string_view kind) {
  return kind == "unreachable" || kind == "timeout" || kind == "connect" || kind == "tls" || kind == "transport";
}

std::string no_answer_reason(std::string_view kind, std::string_view error) {
  // Unknown names and refused addresses look the same on purpose (net::kUnreachable).
  if (kind == "unreachable") return "the host name does not resolve, or only to addresses the egress policy refuses";
  if (kind == "timeout") return error.rfind("timed out after ", 0) == 0 ? std::string(error) : "timed out";
  // libcurl's CURLE_COULDNT_CONNECT: the pages call it "connection refused" too (www/js/messages.js).
  if (kind == "connect") return "connection refused";
  if (kind == "tls") return "TLS handshake failed: " + std::string(error);
  return error.empty() ? std::string("no answer") : std::string(error);
}

std::string unreachable_detail(std::string_view url, std::string_view reason) {
  std::string where(url);
  if (auto u = boost::urls::parse_uri(url)) {
    boost::urls::url v(*u);
    v.normalize_authority();
    std::string port = v.has_port() ? std::string(v.port())
                                    : (v.scheme_id() == boost::urls::scheme::https ? std::string("443") : "80");
    where = std::string(v.encoded_host()) + ":" + port;  // an IPv6 literal keeps its brackets
  }
  return "could not reach " + where + ": " + std::string(reason);
}

}  // namespace dozor::net
