#pragma once
// The egress policy at the socket: every connection libcurl opens (to a target, a redirect
// target, a proxy, an SMTP server) is judged on the address actually connected to.
#include <curl/curl.h>

#include <string>

#include "engines/net/egress_policy.hpp"

namespace dozor::net {

struct EgressGate {
  const EgressPolicy* policy = nullptr;
  std::string refusal;  // why the last refused socket was refused; empty when none was
};

// Installs the gate as the handle's CURLOPT_OPENSOCKETFUNCTION; `gate` must outlive the transfer.
void attach_egress_gate(CURL* easy, EgressGate* gate);

}  // namespace dozor::net
