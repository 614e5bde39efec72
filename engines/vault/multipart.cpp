#include "engines/vault/multipart.hpp"

#include <algorithm>
#include <cctype>
#include <utility>

#include "engines/limits.hpp"

namespace dozor::vault {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Parameters of a header value after its first token: `; key=value; key="quoted \"value\""`.
// Calls fn(lowercased key, value) for each.
template <typename Fn>
void each_param(std::string_view v, Fn&& fn) {
  auto semi = v.find(';');
  if (semi == std::string_view::npos) return;
  v.remove_prefix(semi + 1);
  while (!v.empty()) {
    v = trim(v);
    auto eq = v.find('=');
    if (eq == std::string_view::npos) return;
    std::string key = lower(trim(v.substr(0, eq)));
    v.remove_prefix(eq + 1);
    v = trim(v);
    std::string value;
    if (!v.empty() && v.front() == '"') {
      std::size_t i = 1;
      bool closed = false;
      for (; i < v.size(); ++i) {
        if (v[i] == '\\' && i + 1 < v.size()) {
          value += v[++i];
        } else if (v[i] == '"') {
          closed = true;
          break;
        } else {
          value += v[i];
        }
      }
      if (!closed) throw MultipartError("unterminated quoted string in a part header");
      v.remove_prefix(i + 1);
      auto next = v.find(';');
      v = next == std::string_view::npos ? std::string_view{} : v.substr(next + 1);
    } else {
      auto next = v.find(';');
      value = std::string(trim(v.substr(0, next)));
      v = next == std::string_view::npos ? std::string_view{} : v.substr(next + 1);
    }
    fn(key, value);
  }
}

// RFC 8187 ext-value "UTF-8''%e2%82%ac.txt" → bytes; nullopt for other charsets or bad escapes.
std::optional<std::string> decode_ext_value(std::string_view v) {
  auto q = v.find('\'');
  if (q == std::string_view::npos) return std::nullopt;
  if (lower(v.substr(0, q)) != "utf-8") return std::nullopt;
  auto q2 = v.find('\'', q + 1);
  if (q2 == std::string_view::npos) return std::nullopt;
  v.remove_prefix(q2 + 1);
  std::string out;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (v[i] != '%') {
      out += v[i];
      continue;
    }
    if (i + 2 >= v.size()) return std::nullopt;
    int hi = hex_value(v[i + 1]), lo = hex_value(v[i + 2]);
    if (hi < 0 || lo < 0) return std::nullopt;
    out += static_cast<char>(hi * 16 + lo);
    i += 2;
  }
  return out;
}

bool valid_boundary_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) ||
         std::string_view("'()+_,-./:=? ").find(c) != std::string_view::npos;
}

}  // namespace

std::optional<std::string> multipart_boundary(std::string_view content_type) {
  auto semi = content_type.find(';');
  if (lower(trim(content_type.substr(0, semi))) != "multipart/form-data") return std::nullopt;
  std::optional<std::string> boundary;
  try {
    each_param(content_type, [&](const std::string& k, const std::string& v) {
      if (k == "boundary") boundary = v;
    });
  } catch (const MultipartError&) {
    return std::nullopt;
  }
  if (!boundary || boundary->empty() || boundary->size() > 70 || boundary->back() == ' ') return std::nullopt;
  if (!std::all_of(boundary->begin(), boundary->end(), valid_boundary_char)) return std::nullopt;
  return boundary;
}

MultipartParser::MultipartParser(std::string boundary, MultipartSink& sink)
    : delimiter_("\r\n--" + std::move(boundary)), sink_(sink), buf_("\r\n") {}  // the first boundary needs no CRLF

void MultipartParser::parse_headers(std::string_view block) {
  PartHeaders h;
  bool disposition = false;
  while (!block.empty()) {
    auto eol = block.find("\r\n");
    std::string_view line = block.substr(0, eol);
    block = eol == std::string_view::npos ? std::string_view{} : block.substr(eol + 2);
    if (line.empty()) continue;
    auto colon = line.find(':');
    if (colon == std::string_view::npos || colon == 0) throw MultipartError("malformed part header");
    std::string name = lower(line.substr(0, colon));
    std::string_view value = trim(line.substr(colon + 1));
    if (name == "content-disposition") {
      if (lower(trim(value.substr(0, value.find(';')))) != "form-data") throw MultipartError("a part is not form-data");
      disposition = true;
      std::optional<std::string> ext;
      each_param(value, [&](const std::string& k, const std::string& v) {
        if (k == "name") h.name = v;
        if (k == "filename") h.filename = v;
        if (k == "filename*") {
          ext = decode_ext_value(v);
          if (!ext) throw MultipartError("malformed filename* parameter");
        }
      });
      if (ext) h.filename = ext;
    } else if (name == "content-type") {
      h.content_type = std::string(value);
    }
  }
  if (!disposition) throw MultipartError("a part has no Content-Disposition");
  sink_.on_part(h);
}

void MultipartParser::feed(std::string_view chunk) {
  if (state_ == State::Done) return;  // the epilogue is ignored
  buf_.append(chunk);
  while (true) {
    switch (state_) {
      case State::Preamble: {
        auto at = buf_.find(delimiter_);
        if (at == std::string::npos) {
          // Keep only what could still be the start of the delimiter.
          if (buf_.size() > delimiter_.size()) buf_.erase(0, buf_.size() - delimiter_.size());
          return;
        }
        buf_.erase(0, at + delimiter_.size());
        state_ = State::AfterBoundary;
        break;
      }
      case State::AfterBoundary: {
        if (buf_.size() < 2) return;
        if (buf_.compare(0, 2, "--") == 0) {
          state_ = State::Done;
          buf_.clear();
          return;
        }
        if (buf_.compare(0, 2, "\r\n") != 0) throw MultipartError("malformed boundary line");
        buf_.erase(0, 2);
        if (++parts_ > limits::kVaultUploadParts) throw MultipartError("too many parts");
        state_ = State::Headers;
        break;
      }
      case State::Headers: {
        auto end = buf_.find("\r\n\r\n");
        if (end == std::string::npos) {
          // A terminator starting within the limit would have been found by now.
          if (buf_.size() > limits::kVaultPartHeaderBytes + 3) throw MultipartError("part headers too large");
          return;
        }
        if (end > limits::kVaultPartHeaderBytes) throw MultipartError("part headers too large");
        std::string block = buf_.substr(0, end);
        buf_.erase(0, end + 4);
        state_ = State::Body;
        parse_headers(block);
        break;
      }
      case State::Body: {
        auto at = buf_.find(delimiter_);
        if (at == std::string::npos) {
          // Everything but a possible partial delimiter at the end is data.
          if (buf_.size() >= delimiter_.size()) {
            std::size_t safe = buf_.size() - (delimiter_.size() - 1);
            sink_.on_data(std::string_view(buf_).substr(0, safe));
            buf_.erase(0, safe);
          }
          return;
        }
        if (at > 0) sink_.on_data(std::string_view(buf_).substr(0, at));
        buf_.erase(0, at + delimiter_.size());
        sink_.on_part_end();
        state_ = State::AfterBoundary;
        break;
      }
      case State::Done: return;
    }
  }
}

void MultipartParser::finish() {
  if (state_ != State::Done) throw MultipartError("the multipart body ended early");
}

}  // namespace dozor::vault
