#pragma once
#include <exception>

#include "fcgi/response.hpp"

namespace dozor::http {

// The single place where failures become HTTP answers. Call from a catch block.
Response response_for_current_exception();
Response response_for(const std::exception_ptr& e);

}  // namespace dozor::http
