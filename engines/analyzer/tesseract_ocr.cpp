#include "engines/analyzer/tesseract_ocr.hpp"

#include <leptonica/allheaders.h>
#include <tesseract/baseapi.h>
#include <tesseract/ocrclass.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdio>
#include <map>
#include <mutex>

#include "engines/limits.hpp"

namespace dozor::analyzer {
namespace {

using limits::analyzer::kImageMaxPixels;

struct PixFree {
  void operator()(Pix* p) const { pixDestroy(&p); }
};
using PixPtr = std::unique_ptr<Pix, PixFree>;

// Leptonica and Tesseract report on stderr by default; the analyzer's answer carries the reason.
void quiet() {
  static std::once_flag once;
  std::call_once(once, [] { setMsgSeverity(L_SEVERITY_NONE); });
}

std::unique_ptr<tesseract::TessBaseAPI> start_engine(const std::string& languages, const std::string& datapath) {
  auto api = std::make_unique<tesseract::TessBaseAPI>();
  if (api->Init(datapath.empty() ? nullptr : datapath.c_str(), languages.c_str(), tesseract::OEM_LSTM_ONLY) != 0)
    throw OcrError("OCR cannot start: Tesseract's data for \"" + languages +
                   "\" is not installed (analyzer.ocr_languages; Debian packages tesseract-ocr-<lang>)");
  api->SetVariable("debug_file", "/dev/null");  // "Estimating resolution…" and the like
  api->SetPageSegMode(tesseract::PSM_AUTO);
  return api;
}

// This thread's engine for `languages` (kept for the thread's life: loading one takes ~0.1 s;
// one process reads with one configuration, so the map holds one engine).
tesseract::TessBaseAPI& engine(const std::string& languages, const std::string& datapath) {
  thread_local std::map<std::string, std::unique_ptr<tesseract::TessBaseAPI>> engines;
  auto& slot = engines[languages + "\n" + datapath];
  if (!slot) slot = start_engine(languages, datapath);
  return *slot;
}

bool past(void* deadline, int /*words*/) {
  return std::chrono::steady_clock::now() >= static_cast<const Deadline*>(deadline)->at;
}

// Recognises what SetImage gave the engine; Tesseract stops at the deadline, which then throws.
std::string recognise(tesseract::TessBaseAPI& api, const Deadline& deadline) {
  tesseract::ETEXT_DESC monitor;
  monitor.cancel = past;
  monitor.cancel_this = const_cast<Deadline*>(&deadline);
  if (deadline.at != std::chrono::steady_clock::time_point::max()) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline.at - std::chrono::steady_clock::now());
    monitor.set_deadline_msecs(static_cast<int32_t>(std::clamp<std::int64_t>(left.count(), 1, INT32_MAX)));
  }
  int rc = api.Recognize(&monitor);
  deadline.check();
  std::string text;
  if (rc == 0) {
    std::unique_ptr<char[]> utf8(api.GetUTF8Text());
    if (utf8) text = utf8.get();
  }
  api.Clear();
  return text;
}

void check_size(long long width, long long height) {
  if (width <= 0 || height <= 0) throw BadDocument("the image cannot be decoded");
  if (static_cast<unsigned long long>(width) * static_cast<unsigned long long>(height) > kImageMaxPixels)
    throw BadDocument("the image is " + std::to_string(width) + "×" + std::to_string(height) +
                      " pixels, more than the " + std::to_string(kImageMaxPixels) + " allowed");
}

// GIF's size is in its screen descriptor; Leptonica's header reader decodes the whole file.
void check_gif(std::string_view b) {
  if (b.size() < 10) throw BadDocument("the image cannot be decoded");
  auto u16 = [&](std::size_t i) {
    return static_cast<long long>(static_cast<unsigned char>(b[i]) | static_cast<unsigned char>(b[i + 1]) << 8);
  };
  check_size(u16(6), u16(8));
}

PixPtr decode_page(std::string_view bytes, const l_uint8* data, std::size_t& tiff_offset, int tiff_page, bool tiff) {
  l_int32 w = 0, h = 0, bps = 0, spp = 0, res = 0, cmap = 0, format = 0;
  if (tiff) {
    if (readHeaderMemTiff(data, bytes.size(), tiff_page, &w, &h, &bps, &spp, &res, &cmap, &format) != 0)
      throw BadDocument("the TIFF image cannot be decoded");
    check_size(w, h);
    PixPtr pix(pixReadMemFromMultipageTiff(data, bytes.size(), &tiff_offset));
    if (!pix) throw BadDocument("the TIFF image cannot be decoded");
    return pix;
  }
  if (bytes.substr(0, 3) == "GIF")
    check_gif(bytes);
  else if (pixReadHeaderMem(data, bytes.size(), &format, &w, &h, &bps, &spp, &cmap) != 0)
    throw BadDocument("the image cannot be decoded");
  else
    check_size(w, h);
  PixPtr pix(pixReadMem(data, bytes.size()));
  if (!pix) throw BadDocument("the image is damaged: its pixels cannot be decoded");
  check_size(pixGetWidth(pix.get()), pixGetHeight(pix.get()));
  return pix;
}

int tiff_pages(std::string_view bytes) {
  FILE* f = fmemopen(const_cast<char*>(bytes.data()), bytes.size(), "rb");
  if (!f) throw BadDocument("the TIFF image cannot be decoded");
  l_int32 n = 0;
  bool ok = tiffGetCount(f, &n) == 0;
  std::fclose(f);
  if (!ok || n <= 0) throw BadDocument("the TIFF image cannot be decoded");
  return n;
}

}  // namespace

TesseractOcr::TesseractOcr(std::string languages, std::string datapath)
    : languages_(std::move(languages)), datapath_(std::move(datapath)) {
  quiet();
  engine(languages_, datapath_);
}

ImageText TesseractOcr::read_image_file(std::string_view bytes, std::size_t max_pages, std::size_t max_read,
                                        const Deadline& deadline) const {
  quiet();
  const auto* data = reinterpret_cast<const l_uint8*>(bytes.data());
  bool tiff = image_kind(bytes) && std::string_view(image_kind(bytes)) == "TIFF image";
  int pages = tiff ? tiff_pages(bytes) : 1;
  if (static_cast<std::size_t>(pages) > max_pages)
    throw BadDocument("the image has " + std::to_string(pages) + " pages, more than the " + std::to_string(max_pages) +
                      " allowed");
  ImageText out;
  out.pages = static_cast<std::size_t>(pages);
  std::size_t offset = 0;
  auto& api = engine(languages_, datapath_);
  for (int i = 0; i < pages && static_cast<std::size_t>(i) < max_read; ++i) {
    deadline.check();
    PixPtr pix = decode_page(bytes, data, offset, i, tiff);
    api.SetImage(pix.get());
    // Without a resolution in the file Tesseract guesses one (and says so on stderr).
    if (pixGetXRes(pix.get()) < 70) api.SetSourceResolution(limits::analyzer::kOcrRenderDpi);
    out.text.push_back(recognise(api, deadline));
    if (tiff && offset == 0) break;  // the last page
  }
  return out;
}

std::string TesseractOcr::read_page(const GrayImage& page, const Deadline& deadline) const {
  check_size(page.width, page.height);
  if (page.pixels.size() != static_cast<std::size_t>(page.width) * static_cast<std::size_t>(page.height))
    throw BadDocument("the rendered page is incomplete");
  auto& api = engine(languages_, datapath_);
  api.SetImage(page.pixels.data(), page.width, page.height, 1, page.width);
  api.SetSourceResolution(page.dpi > 0 ? page.dpi : limits::analyzer::kOcrRenderDpi);
  return recognise(api, deadline);
}

}  // namespace dozor::analyzer
