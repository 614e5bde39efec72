// RTF → paragraphs. Debian has no RTF text library for C++, so this is a small bounded reader of
// the RTF 1.9 syntax: groups, control words, \'hh bytes in the document's ANSI code page,
// \uN Unicode with \ucN fallback skipping, and the destinations that hold no body text skipped.
#include <algorithm>
#include <array>
#include <string_view>

#include "engines/analyzer/extract.hpp"
#include "engines/analyzer/text.hpp"

namespace dozor::analyzer {
namespace {

constexpr std::array<std::string_view, 25> kSkipped{
    "fonttbl",      "colortbl",  "stylesheet",        "info",    "pict",      "object",   "themedata", "datastore",
    "latentstyles", "listtable", "listoverridetable", "rsidtbl", "generator", "xmlnstbl", "filetbl",   "revtbl",
    "header",       "footer",    "headerl",           "headerr", "footerl",   "footerr",  "fldinst",   "bkmkstart",
    "bkmkend"};

struct State {
  bool skip = false;
  int uc = 1;  // bytes to skip after \uN
};

}  // namespace

Document extract_rtf(std::string_view s) {
  Document doc;
  doc.type = "rtf";
  std::string codepage = "windows-1252";
  std::string para;     // UTF-8 of the current paragraph
  std::string pending;  // \'hh bytes waiting for conversion from the code page
  std::size_t paragraph = 0;
  std::vector<State> stack{State{}};
  int skip_bytes = 0;

  auto flush_pending = [&] {
    if (!pending.empty()) para += text::to_utf8(pending, codepage), pending.clear();
  };
  auto flush_para = [&] {
    flush_pending();
    ++paragraph;
    add_segment(doc, {"paragraph", std::to_string(paragraph), ""}, std::move(para));
    para.clear();
  };
  auto emit = [&](char c) {
    if (skip_bytes > 0) {
      --skip_bytes;
      return;
    }
    if (stack.back().skip) return;
    flush_pending();
    para += c;
  };

  for (std::size_t i = 0; i < s.size();) {
    char c = s[i];
    if (c == '{') {
      if (stack.size() >= limits::analyzer::kRtfMaxDepth) throw BadDocument("RTF groups are nested too deeply");
      stack.push_back(stack.back());
      ++i;
      if (s.substr(i, 2) == "\\*") stack.back().skip = true;  // an ignorable destination
      continue;
    }
    if (c == '}') {
      if (stack.size() > 1) stack.pop_back();
      ++i;
      continue;
    }
    if (c == '\r' || c == '\n') {
      ++i;
      continue;
    }
    if (c != '\\') {
      emit(c);
      ++i;
      continue;
    }
    // A control symbol or word.
    ++i;
    if (i >= s.size()) break;
    char n = s[i];
    if (n == '\\' || n == '{' || n == '}') {
      emit(n);
      ++i;
      continue;
    }
    if (n == '\'') {
      if (i + 2 < s.size()) {
        auto hex = std::string(s.substr(i + 1, 2));
        char* end = nullptr;
        long v = std::strtol(hex.c_str(), &end, 16);
        i += 3;
        if (end != hex.c_str() + 2) continue;
        if (skip_bytes > 0) {
          --skip_bytes;
          continue;
        }
        if (!stack.back().skip) pending += static_cast<char>(v);
      } else {
        i = s.size();
      }
      continue;
    }
    if (n == '~') {
      emit(' ');
      ++i;
      continue;
    }
    if (!std::isalpha(static_cast<unsigned char>(n))) {
      ++i;  // \-, \_, \* and the like
      continue;
    }
    std::size_t b = i;
    while (i < s.size() && std::isalpha(static_cast<unsigned char>(s[i])) && i - b < 32) ++i;
    std::string word(s.substr(b, i - b));
    bool has_num = false;
    long num = 0;
    bool neg = false;
    if (i < s.size() && s[i] == '-') neg = true, ++i;
    std::size_t nb = i;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])) && i - nb < 10)
      num = num * 10 + (s[i++] - '0');
    has_num = i > nb;
    if (neg) num = -num;
    if (i < s.size() && s[i] == ' ') ++i;  // the delimiter belongs to the word

    if (std::find(kSkipped.begin(), kSkipped.end(), word) != kSkipped.end()) {
      stack.back().skip = true;
    } else if (word == "ansicpg" && has_num) {
      codepage = "windows-" + std::to_string(num);
      if (num == 65001) codepage = "UTF-8";
    } else if (word == "uc" && has_num) {
      stack.back().uc = static_cast<int>(std::max(0L, std::min(num, 8L)));
    } else if (word == "u" && has_num) {
      if (!stack.back().skip) {
        flush_pending();
        auto cp = static_cast<std::uint32_t>(num < 0 ? num + 65536 : num);
        std::string one;
        if (cp < 0x80) {
          one += static_cast<char>(cp);
        } else if (cp < 0x800) {
          one += static_cast<char>(0xC0 | (cp >> 6)), one += static_cast<char>(0x80 | (cp & 0x3F));
        } else {
          one += static_cast<char>(0xE0 | (cp >> 12)), one += static_cast<char>(0x80 | ((cp >> 6) & 0x3F)),
              one += static_cast<char>(0x80 | (cp & 0x3F));
        }
        para += one;
      }
      skip_bytes = stack.back().uc;
    } else if (word == "par" || word == "line" || word == "row" || word == "sect" || word == "page") {
      if (!stack.back().skip) flush_para();
    } else if (word == "tab" || word == "cell") {
      emit(word == "tab" ? '\t' : ' ');
    }
  }
  flush_para();
  return doc;
}

}  // namespace dozor::analyzer
