#include "engines/net/unreachable.hpp"

#include <boost/url/parse.hpp>
#include <boost/url/url.hpp>

namespace dozor::net {

namespace {

// libcurl's words for a certificate that failed verification: CURLE_PEER_FAILED_VERIFICATION's
// own text and OpenSSL's verify results as libcurl's error buffer words them ("SSL certificate
// problem: self-signed certificate", "SSL: no alternative certificate subject name matches …",
// "SSL: certificate subject name '…' does not match …").
bool certificate_verdict(std::string_view error) {
  for (std::string_view words : {"SSL peer certificate", "SSL certificate problem", "SSL: no alternative certificate",
                                 "SSL: certificate subject name"})
    if (error.find(words) != std::string_view::npos) return true;
  return false;
}

}  // namespace

bool never_answered(std::string_view kind, std::string_view error) {
  if (kind == "tls") return !certificate_verdict(error);
  return kind == "unreachable" || kind == "timeout" || kind == "connect" || kind == "transport";
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
