#pragma once
// multipart/form-data (RFC 7578) bodies: the parts of a request, bounded by the body itself.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dozor::http {

struct FormPart {
  std::string name;
  std::string filename;
  std::string content_type;
  std::string_view data;  // into the request body
};

// The boundary parameter of a multipart/form-data Content-Type, or nullopt when the type is
// something else or has no boundary.
std::optional<std::string> multipart_boundary(std::string_view content_type);

// The parts, or nullopt when the body is not well-formed for `boundary` (no closing delimiter,
// a part without headers' end). At most `max_parts` parts are read.
std::optional<std::vector<FormPart>> parse_multipart(std::string_view body, const std::string& boundary,
                                                     std::size_t max_parts = 16);

}  // namespace dozor::http
