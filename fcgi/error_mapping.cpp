#include "fcgi/error_mapping.hpp"

#include <boost/json/object.hpp>
#include <iostream>

#include "db/errors.hpp"
#include "engines/errors.hpp"
#include "fcgi/http_error.hpp"

namespace dozor::http {
namespace {

Response validation_response(const ValidationFailed& v) {
  boost::json::array detail;
  for (const auto& issue : v.issues) {
    boost::json::object item{{"type", issue.type}, {"loc", issue.loc}, {"msg", issue.msg}};
    item["input"] = issue.input ? *issue.input : boost::json::value(nullptr);
    if (!issue.ctx.empty()) item["ctx"] = issue.ctx;
    detail.push_back(std::move(item));
  }
  return Response::json(boost::json::object{{"detail", std::move(detail)}}, 422);
}

Response unauthenticated() {
  return Response::error(401, "Not authenticated").with_header("WWW-Authenticate", "Bearer");
}

}  // namespace

Response response_for(std::exception_ptr e) {
  try {
    std::rethrow_exception(e);
  } catch (const ValidationFailed& v) {
    return validation_response(v);
  } catch (const HttpError& h) {
    auto r = Response::error(h.status, h.what());
    for (const auto& hv : h.headers) r.headers.push_back(hv);
    return r;
  } catch (const Unauthenticated&) {
    return unauthenticated();
  } catch (const BadCredentials& b) {
    return Response::error(401, b.what()).with_header("WWW-Authenticate", "Bearer");
  } catch (const TooManyAttempts& t) {
    return Response::error(429, t.what()).with_header("Retry-After", std::to_string(t.retry_after));
  } catch (const Forbidden& f) {
    return Response::error(403, f.what());
  } catch (const NotFound& n) {
    return Response::error(404, n.what());
  } catch (const Conflict& c) {
    return Response::error(409, c.what());
  } catch (const Unavailable& u) {
    std::cerr << "unavailable: " << u.what() << "\n";
    return Response::error(503, "Service temporarily unavailable").with_header("Retry-After", "5");
  } catch (const db::DbUnavailable& d) {
    std::cerr << "database unavailable: " << d.what() << "\n";
    return Response::error(503, "Database unavailable").with_header("Retry-After", "5");
  } catch (const db::DbError& d) {
    std::cerr << "database error: " << d.what() << "\n";
    return Response::error(500, "Internal server error");
  } catch (const std::exception& ex) {
    std::cerr << "unhandled error: " << ex.what() << "\n";
    return Response::error(500, "Internal server error");
  } catch (...) {
    std::cerr << "unhandled non-standard exception\n";
    return Response::error(500, "Internal server error");
  }
}

Response response_for_current_exception() { return response_for(std::current_exception()); }

}  // namespace dozor::http
