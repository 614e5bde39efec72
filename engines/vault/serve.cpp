#include "engines/vault/serve.hpp"

#include <magic.h>
#include <unistd.h>

#include <array>
#include <cctype>
#include <memory>

namespace dozor::vault {
namespace {

bool unreserved(unsigned char c) { return std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~'; }

std::string pct(std::string_view s, bool keep_slash) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (char ch : s) {
    auto c = static_cast<unsigned char>(ch);
    if (unreserved(c) || (keep_slash && c == '/')) {
      out += ch;
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

struct MagicCloser {
  void operator()(magic_set* m) const { magic_close(m); }
};

// libmagic handles are not thread-safe: one per thread, loaded on first use.
magic_t thread_magic() {
  thread_local std::unique_ptr<magic_set, MagicCloser> handle;
  thread_local bool tried = false;
  if (!tried) {
    tried = true;
    magic_t m = magic_open(MAGIC_MIME_TYPE | MAGIC_ERROR | MAGIC_NO_CHECK_COMPRESS | MAGIC_NO_CHECK_ELF);
    if (m && magic_load(m, nullptr) == 0)
      handle.reset(m);
    else if (m)
      magic_close(m);
  }
  return handle.get();
}

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

}  // namespace

std::string accel_uri(const VaultPath& p) { return std::string(kAccelPrefix) + pct(p.relative(), true); }

std::string content_disposition(bool as_inline, std::string_view filename) {
  std::string fallback;
  for (char ch : filename) {
    auto c = static_cast<unsigned char>(ch);
    bool plain = c >= 0x20 && c < 0x7F && c != '"' && c != '\\' && c != '%' && c != ';';
    if (plain)
      fallback += ch;
    else if ((c & 0xC0) != 0x80)  // one '_' per non-ASCII character, not per byte
      fallback += '_';
  }
  if (fallback.empty()) fallback = "file";
  return std::string(as_inline ? "inline" : "attachment") + "; filename=\"" + fallback + "\"; filename*=UTF-8''" +
         pct(filename, false);
}

std::string sniff_mime(int fd) {
  std::array<char, 65536> buf{};
  ssize_t n = pread(fd, buf.data(), buf.size(), 0);
  if (n < 0) return "application/octet-stream";
  if (n == 0) return "text/plain";  // an empty file shows as an empty text
  magic_t m = thread_magic();
  const char* type = m ? magic_buffer(m, buf.data(), static_cast<std::size_t>(n)) : nullptr;
  return type ? std::string(type) : "application/octet-stream";
}

ViewDecision view_policy(std::string_view t) {
  static constexpr std::string_view kImages[] = {"image/png",  "image/jpeg", "image/gif",
                                                 "image/webp", "image/bmp",  "image/avif"};
  for (auto img : kImages)
    if (t == img) return {std::string(t), true};
  if (t == "application/pdf") return {"application/pdf", true};
  if (starts_with(t, "audio/") || starts_with(t, "video/")) return {std::string(t), true};
  // Text that a browser could run or render as markup stays an attachment.
  bool markup = t.find("html") != std::string_view::npos || t.find("xml") != std::string_view::npos ||
                t.find("svg") != std::string_view::npos;
  if (starts_with(t, "text/") && !markup) return {"text/plain; charset=utf-8", true};
  return {"application/octet-stream", false};
}

}  // namespace dozor::vault
