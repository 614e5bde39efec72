#pragma once
#include "fcgi/router.hpp"

namespace dozor::http {

// The one route table of dozor-fcgi.
Router build_router();

}  // namespace dozor::http
