#include "fcgi/response.hpp"

#include <boost/json/serialize.hpp>

namespace dozor::http {

Response Response::json(const boost::json::value& v, int status) {
  Response r;
  r.status = status;
  r.body = boost::json::serialize(v);
  return r;
}

Response Response::error(int status, std::string_view detail) {
  return json(boost::json::object{{"detail", detail}}, status);
}

Response& Response::with_header(std::string name, std::string value) {
  headers.emplace_back(std::move(name), std::move(value));
  return *this;
}

const char* reason_phrase(int status) {
  switch (status) {
    case 200: return "OK";
    case 201: return "Created";
    case 204: return "No Content";
    case 302: return "Found";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 409: return "Conflict";
    case 413: return "Content Too Large";
    case 422: return "Unprocessable Content";
    case 429: return "Too Many Requests";
    case 500: return "Internal Server Error";
    case 503: return "Service Unavailable";
    default: return "Unknown";
  }
}

}  // namespace dozor::http
