#include "engines/net/egress_socket.hpp"

#include <sys/socket.h>

namespace dozor::net {
namespace {

curl_socket_t open_gated_socket(void* data, curlsocktype purpose, curl_sockaddr* addr) {
  auto* gate = static_cast<EgressGate*>(data);
  if (purpose != CURLSOCKTYPE_IPCXN) return CURL_SOCKET_BAD;
  auto ip = IpAddress::from_sockaddr(&addr->addr);
  if (!ip) {
    gate->refusal = "not an IP socket";
    return CURL_SOCKET_BAD;
  }
  if (auto why = gate->policy->refusal(*ip)) {
    gate->refusal = *why;
    return CURL_SOCKET_BAD;
  }
  return socket(addr->family, addr->socktype | SOCK_CLOEXEC, addr->protocol);
}

}  // namespace

void attach_egress_gate(CURL* easy, EgressGate* gate) {
  curl_easy_setopt(easy, CURLOPT_OPENSOCKETFUNCTION, open_gated_socket);
  curl_easy_setopt(easy, CURLOPT_OPENSOCKETDATA, gate);
}

}  // namespace dozor::net
