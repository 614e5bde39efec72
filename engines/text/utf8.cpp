#include "engines/text/utf8.hpp"

namespace dozor::text {
namespace {

struct Step {
  std::size_t bytes;  // consumed
  bool valid;
};

// One decoding step at s[i] (the WHATWG UTF-8 decoder): a valid sequence, or the maximal prefix
// of one that a single U+FFFD replaces — the lead byte plus the continuation bytes that were
// still in range when the sequence broke off.
Step step(std::string_view s, std::size_t i) {
  auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char b0 = byte(i);
  if (b0 < 0x80) return {1, true};
  std::size_t len = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // the allowed range of the second byte
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    len = 2;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    len = 3;
    if (b0 == 0xE0) lo = 0xA0;  // overlong
    if (b0 == 0xED) hi = 0x9F;  // surrogates
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    len = 4;
    if (b0 == 0xF0) lo = 0x90;  // overlong
    if (b0 == 0xF4) hi = 0x8F;  // above U+10FFFF
  } else {
    return {1, false};
  }
  for (std::size_t k = 1; k < len; ++k) {
    if (i + k >= s.size()) return {k, false};
    unsigned char b = byte(i + k);
    if (b < (k == 1 ? lo : 0x80) || b > (k == 1 ? hi : 0xBF)) return {k, false};
  }
  return {len, true};
}

}  // namespace

bool is_valid_utf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    Step st = step(s, i);
    if (!st.valid) return false;
    i += st.bytes;
  }
  return true;
}

std::string to_valid_utf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  // Valid text is copied in runs, not a sequence at a time: every crawled page passes here
  // (bench/crawl's profile had the per-sequence appends at 6 % of a crawl).
  std::size_t run = 0;  // where the current run of valid sequences began
  for (std::size_t i = 0; i < s.size();) {
    if (static_cast<unsigned char>(s[i]) < 0x80) {
      ++i;
      continue;
    }
    Step st = step(s, i);
    if (!st.valid) {
      out.append(s.substr(run, i - run));
      out.append("\xEF\xBF\xBD");
      run = i + st.bytes;
    }
    i += st.bytes;
  }
  out.append(s.substr(run));
  return out;
}

std::size_t utf8_length(std::string_view s) {
  std::size_t n = 0;
  for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

std::string utf8_prefix(std::string_view s, std::size_t max_chars) {
  std::size_t chars = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80 && chars++ == max_chars) return std::string(s.substr(0, i));
  }
  return std::string(s);
}

}  // namespace dozor::text
