#include "fcgi/error_mapping.hpp"

#include <boost/json/object.hpp>
#include <iostream>

#include "db/errors.hpp"
#include "engines/errors.hpp"
#include "engines/net/unreachable.hpp"
#include "engines/secrets.hpp"
#include "engines/text/utf8.hpp"
#include "engines/vault/multipart.hpp"
#include "engines/vault/path.hpp"
#include "engines/vault/store.hpp"
#include "fcgi/http_error.hpp"

namespace dozor::http {
namespace {

// An echoed input is an excerpt: strings cut at kEchoChars characters, at most kEchoItems
// members or elements per level, kEchoDepth levels, and secret-named members masked. A 1 MiB
// body thus answers with a few KiB, and a password sent in a bad body is never sent back.
constexpr std::size_t kEchoChars = 128;
constexpr std::size_t kEchoItems = 16;
constexpr int kEchoDepth = 3;

// Text as JSON may carry it: an input echoed from a query, a path or a header may hold any bytes,
// and JSON is UTF-8 — each invalid sequence becomes U+FFFD, as the vault's routes echo paths.
boost::json::string valid_text(boost::json::string_view s) {
  if (text::is_valid_utf8(s)) return boost::json::string(s);
  return boost::json::string(text::to_valid_utf8(s));
}

boost::json::value valid_json(const boost::json::value& v) {
  if (v.is_string()) return valid_text(v.get_string());
  if (v.is_array()) {
    boost::json::array out;
    for (const auto& e : v.get_array()) out.push_back(valid_json(e));
    return out;
  }
  if (v.is_object()) {
    boost::json::object out;
    for (const auto& [k, member] : v.get_object()) out[valid_text(k)] = valid_json(member);
    return out;
  }
  return v;
}

boost::json::value excerpt(const boost::json::value& v, int depth) {
  if (v.is_string()) {
    auto s = valid_text(v.get_string());
    std::size_t chars = 0, i = 0;
    for (; i < s.size(); ++i)
      if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80 && chars++ == kEchoChars) break;
    if (i >= s.size()) return s;
    return boost::json::string(std::string(s.data(), i) + "…");
  }
  if (v.is_object()) {
    if (depth >= kEchoDepth) return boost::json::string("{…}");
    boost::json::object out;
    std::size_t n = 0;
    for (const auto& [k, member] : v.get_object()) {
      if (n++ == kEchoItems) {
        out["…"] = "(more members not shown)";
        break;
      }
      out[valid_text(k)] = secrets::is_secret_name(k) ? boost::json::value("****") : excerpt(member, depth + 1);
    }
    return out;
  }
  if (v.is_array()) {
    if (depth >= kEchoDepth) return boost::json::string("[…]");
    boost::json::array out;
    for (const auto& e : v.get_array()) {
      if (out.size() == kEchoItems) {
        out.push_back("…");
        break;
      }
      out.push_back(excerpt(e, depth + 1));
    }
    return out;
  }
  return v;
}

// The field a location names: its last string element ("password" in ["body", "password"]).
bool names_a_secret(const boost::json::array& loc) {
  for (auto it = loc.rbegin(); it != loc.rend(); ++it)
    if (it->is_string()) return secrets::is_secret_name(it->get_string());
  return false;
}

Response validation_response(const ValidationFailed& v) {
  boost::json::array detail;
  for (const auto& issue : v.issues) {
    boost::json::object item{{"type", issue.type}, {"loc", valid_json(issue.loc)}, {"msg", valid_text(issue.msg)}};
    if (!issue.input)
      item["input"] = nullptr;
    else if (names_a_secret(issue.loc))
      item["input"] = "****";
    else
      item["input"] = excerpt(*issue.input, 0);
    if (!issue.ctx.empty()) item["ctx"] = valid_json(issue.ctx);
    detail.push_back(std::move(item));
  }
  return Response::json(boost::json::object{{"detail", std::move(detail)}}, 422);
}

Response unauthenticated() {
  return Response::error(401, "Not authenticated").with_header("WWW-Authenticate", "Bearer");
}

}  // namespace

Response response_for(const std::exception_ptr& e) {
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
  } catch (const Busy& b) {
    return Response::error(429, b.what()).with_header("Retry-After", std::to_string(b.retry_after));
  } catch (const InvalidField& f) {
    boost::json::array loc{"body"};
    for (const auto& part : f.loc) loc.emplace_back(part);
    return validation_response(
        ValidationFailed({{"value_error", std::move(loc), std::string("Value error, ") + f.what(), {}, {}}}));
  } catch (const vault::InvalidPath& p) {
    // Names inside an upload body; path parameters are located precisely by their handlers.
    return validation_response(
        ValidationFailed({{"value_error", {"body", "filename"}, std::string("Value error, ") + p.what(), {}, {}}}));
  } catch (const vault::TooLarge& t) {
    return Response::error(413, t.what());
  } catch (const vault::NoSpace& n) {
    return Response::error(507, n.what());
  } catch (const vault::MultipartError& m) {
    return Response::error(400, std::string("Malformed upload: ") + m.what());
  } catch (const Forbidden& f) {
    return Response::error(403, f.what());
  } catch (const NotFound& n) {
    return Response::error(404, n.what());
  } catch (const Conflict& c) {
    return Response::error(409, c.what());
  } catch (const net::TargetUnreachable& t) {
    return Response::error(502, t.what());
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
