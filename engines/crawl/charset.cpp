#include "engines/crawl/charset.hpp"

#include <uchardet/uchardet.h>
#include <unicode/ucnv.h>

#include <algorithm>
#include <memory>
#include <regex>
#include <vector>

#include "engines/text/utf8.hpp"

namespace dozor::crawl {
namespace {

constexpr std::size_t kMetaWindow = 1024;                     // where HTML5 looks for <meta charset>
constexpr std::size_t kDetectBytes = std::size_t{64} * 1024;  // uchardet decides on this much

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::string clean_name(std::string_view s) {
  auto b = s.find_first_not_of(" \t\"'");
  if (b == std::string_view::npos) return {};
  auto e = s.find_first_of(" \t\"';,", b);
  return lower(s.substr(b, e == std::string_view::npos ? std::string_view::npos : e - b));
}

bool is_utf8_name(const std::string& n) { return n == "utf-8" || n == "utf8"; }

}  // namespace

std::optional<std::string> charset_of_content_type(std::string_view content_type) {
  auto lc = lower(content_type);
  auto pos = lc.find("charset=");
  if (pos == std::string::npos) return std::nullopt;
  auto name = clean_name(std::string_view(lc).substr(pos + 8));
  if (name.empty()) return std::nullopt;
  return name;
}

std::string detect_charset(std::string_view body, std::string_view content_type) {
  if (auto c = charset_of_content_type(content_type)) return *c;
  if (body.size() >= 3 && body.substr(0, 3) == "\xEF\xBB\xBF") return "utf-8";
  if (body.size() >= 2 && (body.substr(0, 2) == "\xFF\xFE")) return "utf-16le";
  if (body.size() >= 2 && (body.substr(0, 2) == "\xFE\xFF")) return "utf-16be";
  // <meta charset="x"> or <meta http-equiv="Content-Type" content="text/html; charset=x">
  static const std::regex meta(R"(<meta[^>]*charset\s*=\s*["']?\s*([A-Za-z0-9_:.\-]+))", std::regex::icase);
  std::string head(body.substr(0, std::min(body.size(), kMetaWindow)));
  std::smatch m;
  if (std::regex_search(head, m, meta)) return lower(m[1].str());
  if (text::is_valid_utf8(body)) return "utf-8";
  std::unique_ptr<std::remove_pointer_t<uchardet_t>, void (*)(uchardet_t)> det(uchardet_new(), uchardet_delete);
  if (det) {
    auto sample = body.substr(0, std::min(body.size(), kDetectBytes));
    if (uchardet_handle_data(det.get(), sample.data(), sample.size()) == 0) {
      uchardet_data_end(det.get());
      std::string guess = lower(uchardet_get_charset(det.get()));
      if (!guess.empty() && guess != "ascii") return guess;
    }
  }
  return "windows-1252";  // what browsers fall back to
}

std::string to_utf8(std::string_view body, std::string_view content_type) {
  std::string cs = detect_charset(body, content_type);
  if (is_utf8_name(cs) || cs == "us-ascii" || cs == "ascii") {
    if (body.substr(0, 3) == "\xEF\xBB\xBF") body.remove_prefix(3);
    return text::to_valid_utf8(body);
  }
  UErrorCode status = U_ZERO_ERROR;
  UConverter* from = ucnv_open(cs.c_str(), &status);
  if (U_FAILURE(status) || !from) return text::to_valid_utf8(body);  // an unknown name: read it as UTF-8
  ucnv_close(from);
  // ucnv_convert sizes the output: a first call with no room returns the length needed.
  status = U_ZERO_ERROR;
  int32_t need = ucnv_convert("utf-8", cs.c_str(), nullptr, 0, body.data(), static_cast<int32_t>(body.size()), &status);
  if (status != U_BUFFER_OVERFLOW_ERROR && U_FAILURE(status)) return text::to_valid_utf8(body);
  std::vector<char> out(static_cast<std::size_t>(need) + 1);
  status = U_ZERO_ERROR;
  int32_t n = ucnv_convert("utf-8", cs.c_str(), out.data(), static_cast<int32_t>(out.size()), body.data(),
                           static_cast<int32_t>(body.size()), &status);
  if (U_FAILURE(status)) return text::to_valid_utf8(body);
  return text::to_valid_utf8(std::string_view(out.data(), static_cast<std::size_t>(n)));
}

}  // namespace dozor::crawl
