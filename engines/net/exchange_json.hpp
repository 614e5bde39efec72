#pragma once
// An exchange record as JSON evidence: {"url", "request_line", "request_headers": [[name, value]…],
// "status", "status_line", "response_headers", "body_excerpt"}. One shape for every scanner.
#include <boost/json/object.hpp>

#include "engines/net/multi_fetch.hpp"

namespace dozor::net {

boost::json::object to_json(const Exchange& exchange);

}  // namespace dozor::net
