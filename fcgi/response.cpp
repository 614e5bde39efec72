#include "fcgi/response.hpp"

#include <boost/json/serialize.hpp>
#include <cctype>
#include <iostream>

#include "engines/text/utf8.hpp"

namespace dozor::http {

Response Response::json(const boost::json::value& v, int status) {
  Response r;
  r.status = status;
  r.body = boost::json::serialize(v);
  return r;
}

Response Response::error(int status, std::string_view detail) {
  // A detail may quote what the client sent; JSON must stay UTF-8 (U+FFFD for invalid bytes).
  if (!text::is_valid_utf8(detail)) return json(boost::json::object{{"detail", text::to_valid_utf8(detail)}}, status);
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
    case 202: return "Accepted";
    case 204: return "No Content";
    case 206: return "Partial Content";
    case 301: return "Moved Permanently";
    case 302: return "Found";
    case 303: return "See Other";
    case 304: return "Not Modified";
    case 307: return "Temporary Redirect";
    case 308: return "Permanent Redirect";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 406: return "Not Acceptable";
    case 408: return "Request Timeout";
    case 409: return "Conflict";
    case 410: return "Gone";
    case 411: return "Length Required";
    case 412: return "Precondition Failed";
    case 413: return "Content Too Large";
    case 414: return "URI Too Long";
    case 415: return "Unsupported Media Type";
    case 416: return "Range Not Satisfiable";
    case 422: return "Unprocessable Content";
    case 428: return "Precondition Required";
    case 429: return "Too Many Requests";
    case 500: return "Internal Server Error";
    case 501: return "Not Implemented";
    case 502: return "Bad Gateway";
    case 503: return "Service Unavailable";
    case 504: return "Gateway Timeout";
    case 507: return "Insufficient Storage";
  }
  // An unlisted code still gets the phrase of its class, never an empty or made-up one.
  if (status >= 200 && status < 300) return "OK";
  if (status >= 300 && status < 400) return "Redirection";
  if (status >= 400 && status < 500) return "Client Error";
  return "Server Error";
}

namespace {

// RFC 9110 §5.6.2 token characters.
bool is_token(std::string_view s) {
  if (s.empty()) return false;
  for (char ch : s) {
    auto c = static_cast<unsigned char>(ch);
    bool ok =
        std::isalnum(c) || std::string_view("!#$%&'*+-.^_`|~").find(static_cast<char>(c)) != std::string_view::npos;
    if (!ok) return false;
  }
  return true;
}

// Field values: visible characters, spaces and tabs, obs-text; never CR, LF, NUL or other controls.
bool is_field_value(std::string_view s) {
  for (char ch : s)
    if (auto c = static_cast<unsigned char>(ch); (c < 0x20 && c != '\t') || c == 0x7F) return false;
  return true;
}

bool headers_are_safe(const Response& r) {
  if (!is_field_value(r.content_type) || !is_field_value(r.cache_control)) return false;
  for (const auto& [name, value] : r.headers)
    if (!is_token(name) || !is_field_value(value)) return false;
  return r.status >= 100 && r.status <= 599;
}

std::string head_of(const Response& r) {
  std::string head = "Status: " + std::to_string(r.status) + " " + reason_phrase(r.status) + "\r\n";
  head += "Content-Type: " + r.content_type + "\r\n";
  if (!r.cache_control.empty()) head += "Cache-Control: " + r.cache_control + "\r\n";
  for (const auto& [k, v] : r.headers) head.append(k).append(": ").append(v).append("\r\n");
  head += "Content-Length: " + std::to_string(r.body.size()) + "\r\n\r\n";
  return head;
}

const Response& refused_answer() {
  static const Response r = Response::error(500, "Internal server error");
  return r;
}

}  // namespace

std::string render_head(const Response& r) {
  if (headers_are_safe(r)) return head_of(r);
  std::cerr << "response refused: a header name or value is not allowed (CR/LF/control characters)\n";
  return head_of(refused_answer());
}

std::string_view body_to_send(const Response& r) {
  if (!headers_are_safe(r)) return refused_answer().body;
  return r.head_only ? std::string_view() : std::string_view(r.body);
}

}  // namespace dozor::http
