#pragma once
#include "fcgi/request.hpp"
#include "fcgi/response.hpp"
#include "fcgi/router.hpp"
#include "handlers/app.hpp"

namespace dozor::http {

// Route → access guard → handler, with every failure turned into its HTTP answer. Never throws.
Response dispatch(const Router& router, App& app, const Request& req);

}  // namespace dozor::http
