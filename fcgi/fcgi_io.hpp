#pragma once
// Copying between libfcgi's request and Dozor's owned Request/Response.
#include <fcgiapp.h>

#include "fcgi/request.hpp"
#include "fcgi/response.hpp"

namespace dozor::fcgi {

constexpr std::size_t kMaxHeaders = 100;

enum class ReadStatus { Ok, BadRequest, TooLarge };

// Fills `out` from the params and stdin of `req`; the body is read only when within max_body.
ReadStatus read_request(FCGX_Request& req, long long max_body, http::Request& out);

void write_response(FCGX_Request& req, const http::Response& res);

}  // namespace dozor::fcgi
