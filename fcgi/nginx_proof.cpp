#include "fcgi/nginx_proof.hpp"

#include <string>

#include "engines/auth/crypto.hpp"

namespace dozor::fcgi {

NginxProof check_nginx_proof(http::Request& req, std::string_view key) {
  auto it = req.params.find(std::string(kNginxKeyParam));
  if (it == req.params.end() || it->second.empty()) {
    if (it != req.params.end()) req.params.erase(it);
    return NginxProof::Missing;
  }
  std::string sent = std::move(it->second);
  req.params.erase(it);
  if (!auth::crypto::equal_constant_time(sent, key)) return NginxProof::Wrong;
  return NginxProof::Valid;
}

}  // namespace dozor::fcgi
