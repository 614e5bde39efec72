#include "fcgi/multipart.hpp"

#include <algorithm>
#include <cctype>

namespace dozor::http {
namespace {

std::string lower(std::string_view s) {
  std::string o(s);
  for (auto& c : o) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return o;
}

// A parameter of a header value: name="value" or name=value.
std::string param(std::string_view header, std::string_view name) {
  std::string low = lower(header);
  std::string key = std::string(name) + "=";
  for (std::size_t p = low.find(key); p != std::string::npos; p = low.find(key, p + 1)) {
    if (p > 0 && low[p - 1] != ';' && low[p - 1] != ' ' && low[p - 1] != '\t') continue;
    std::size_t v = p + key.size();
    if (v < header.size() && header[v] == '"') {
      auto end = header.find('"', v + 1);
      if (end == std::string_view::npos) return {};
      return std::string(header.substr(v + 1, end - v - 1));
    }
    auto end = header.find(';', v);
    std::string out(header.substr(v, end == std::string_view::npos ? std::string_view::npos : end - v));
    while (!out.empty() && (out.back() == ' ' || out.back() == '\t')) out.pop_back();
    return out;
  }
  return {};
}

}  // namespace

std::optional<std::string> multipart_boundary(std::string_view content_type) {
  std::string low = lower(content_type);
  if (low.rfind("multipart/form-data", 0) != 0) return std::nullopt;
  std::string b = param(content_type, "boundary");
  if (b.empty() || b.size() > 70) return std::nullopt;  // RFC 2046: 1..70 characters
  return b;
}

std::optional<std::vector<FormPart>> parse_multipart(std::string_view body, const std::string& boundary,
                                                     std::size_t max_parts) {
  const std::string delim = "--" + boundary;
  std::vector<FormPart> parts;
  std::size_t pos = body.find(delim);
  if (pos == std::string_view::npos) return std::nullopt;
  for (;;) {
    pos += delim.size();
    if (body.substr(pos, 2) == "--") return parts;  // the closing delimiter
    if (body.substr(pos, 2) != "\r\n") return std::nullopt;
    pos += 2;
    auto head_end = body.find("\r\n\r\n", pos);
    if (head_end == std::string_view::npos) return std::nullopt;
    FormPart part;
    std::string_view head = body.substr(pos, head_end - pos);
    for (std::size_t l = 0; l <= head.size();) {
      auto e = head.find("\r\n", l);
      if (e == std::string_view::npos) e = head.size();
      std::string_view line = head.substr(l, e - l);
      auto colon = line.find(':');
      if (colon != std::string_view::npos) {
        std::string name = lower(line.substr(0, colon));
        std::string_view value = line.substr(colon + 1);
        while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
        if (name == "content-disposition") {
          part.name = param(value, "name");
          part.filename = param(value, "filename");
        } else if (name == "content-type") {
          part.content_type = std::string(value);
        }
      }
      l = e + 2;
    }
    std::size_t data_begin = head_end + 4;
    auto next = body.find("\r\n" + delim, data_begin);
    if (next == std::string_view::npos) return std::nullopt;
    part.data = body.substr(data_begin, next - data_begin);
    parts.push_back(std::move(part));
    if (parts.size() > max_parts) return std::nullopt;
    pos = next + 2;
  }
}

}  // namespace dozor::http
