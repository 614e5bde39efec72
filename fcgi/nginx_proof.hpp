#pragma once
// Who wrote a request on the FastCGI socket. Anything that can write to the socket could otherwise
// set REMOTE_ADDR and the DOZOR_* parameters (the analyzer's caller) and pass as an admin or an
// internal address; nginx proves itself with a per-install key it sends as DOZOR_NGINX_KEY, from an
// include only nginx's master (root) reads (docs/install.md "The FastCGI sockets").
#include <string_view>

#include "fcgi/request.hpp"

namespace dozor::fcgi {

inline constexpr std::string_view kNginxKeyParam = "DOZOR_NGINX_KEY";

enum class NginxProof { Valid, Missing, Wrong };

// Compares the request's DOZOR_NGINX_KEY with `key` in constant time and removes the parameter
// from the request, so that no handler or log ever sees it. `key` must not be empty.
NginxProof check_nginx_proof(http::Request& req, std::string_view key);

}  // namespace dozor::fcgi
