// PDF → pages. Encrypted and malformed files are refused with their reason; the page count is
// bounded before any text is read. Each page's text is read with poppler's core API, in the
// layout poppler-cpp's page::text() gave (physical, 72 dpi, the crop box), and bounded while the
// page is drawn (kPdfPageMaxChars characters, analyzer.max_seconds): a page drawing one form
// XObject thousands of times once cost poppler-cpp minutes and gigabytes before any limit could
// look at its text. With OCR, a page whose text layer is (almost) empty — a scan — is rendered in
// grey by poppler-cpp and read by OCR, up to kOcrMaxPages of them; the others are counted as
// pages without text.
#include <poppler/cpp/poppler-document.h>
#include <poppler/cpp/poppler-global.h>
#include <poppler/cpp/poppler-page-renderer.h>
#include <poppler/cpp/poppler-page.h>

// poppler's core API (Debian's libpoppler-private-dev).
#include <Error.h>
#include <GlobalParams.h>
#include <PDFDoc.h>
#include <Stream.h>
#include <TextOutputDev.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <mutex>

#include "engines/analyzer/extract.hpp"
#include "engines/text/utf8.hpp"

namespace dozor::analyzer {
namespace {

using namespace limits::analyzer;

// What one page may still do while poppler draws it. Shared by the page's text device, the
// document's streams and the abort callback; nothing here throws (poppler's code is between).
struct PageBudget {
  const Deadline* deadline = nullptr;
  std::size_t chars = 0;       // drawn on this page so far
  bool too_much_text = false;  // past kPdfPageMaxChars
  bool too_slow = false;       // past the deadline
  unsigned ticks = 0;          // work since the clock was last read

  bool stopped() const { return too_much_text || too_slow; }
  void look_at_clock() {
    ticks = 0;
    if (deadline->at != std::chrono::steady_clock::time_point::max() &&
        std::chrono::steady_clock::now() >= deadline->at)
      too_slow = true;
  }
  // `n` units of work (bytes read, characters or paths drawn); the clock is read every 256.
  bool tick(unsigned n = 1) {
    ticks += n;
    if (ticks >= 256) look_at_clock();
    return !stopped();
  }
  // `n` characters drawn; false once the page must stop.
  bool draw(std::size_t n) {
    chars += n;
    if (chars > kPdfPageMaxChars) too_much_text = true;
    return tick();
  }
};

bool abort_page(void* budget) {
  auto* b = static_cast<PageBudget*>(budget);
  b->look_at_clock();
  return b->stopped();
}

// The PDF's bytes as poppler reads them: poppler's MemStream, except that every read ends (EOF)
// once the page is stopped. Every object, content stream and form poppler parses is a sub-stream
// of this one, so a stopped page runs out of operators at once — poppler's abort callback alone is
// asked only every few operators of one content stream, never inside a form of one long string.
class BudgetStream final : public BaseStream {
 public:
  BudgetStream(const char* buf, Goffset size, Goffset start, Goffset len, Object&& stream_dict, PageBudget* budget)
      : BaseStream(std::move(stream_dict), len), buf_(buf), size_(size), start_(start), pos_(start), budget_(budget) {}

  BaseStream* copy() override { return new BudgetStream(buf_, size_, start_, length, dict.copy(), budget_); }
  Stream* makeSubStream(Goffset start, bool limited, Goffset len, Object&& stream_dict) override {
    Goffset n = (!limited || start + len > start_ + length) ? start_ + length - start : len;
    return new BudgetStream(buf_, size_, start, n, std::move(stream_dict), budget_);
  }
  StreamKind getKind() const override { return strWeird; }
  void reset() override { pos_ = start_; }
  void close() override {}
  int getChar() override {
    if (!readable()) return EOF;
    budget_->tick();
    return static_cast<unsigned char>(buf_[pos_++]);
  }
  int lookChar() override { return readable() ? static_cast<unsigned char>(buf_[pos_]) : EOF; }
  Goffset getPos() override { return pos_; }
  void setPos(Goffset pos, int dir = 0) override {
    Goffset i = dir >= 0 ? pos : start_ + length - pos;
    pos_ = std::clamp(i, start_, std::max(start_, start_ + length));
  }
  Goffset getStart() override { return start_; }
  void moveStart(Goffset delta) override {
    start_ += delta;
    length -= delta;
    pos_ = start_;
  }
  int getUnfilteredChar() override { return getChar(); }
  void unfilteredReset() override { reset(); }

 private:
  Goffset end() const { return std::min(start_ + length, size_); }
  bool readable() const { return pos_ >= 0 && pos_ < end() && !budget_->stopped(); }
  bool hasGetChars() override { return true; }
  int getChars(int n, unsigned char* out) override {
    if (n <= 0 || !readable()) return 0;
    Goffset k = std::min<Goffset>(n, end() - pos_);
    std::copy(buf_ + pos_, buf_ + pos_ + k, out);
    pos_ += k;
    budget_->tick(static_cast<unsigned>(k));
    return static_cast<int>(k);
  }

  const char* buf_;
  Goffset size_;
  Goffset start_;
  Goffset pos_;
  PageBudget* budget_;
};

// Characters in a PDF text string (UTF-16 with a byte order mark, else one a byte).
std::size_t text_string_chars(const GooString* s) {
  if (!s) return 0;
  const std::string& b = s->toStr();
  bool utf16 = b.size() >= 2 && ((b[0] == '\xFE' && b[1] == '\xFF') || (b[0] == '\xFF' && b[1] == '\xFE'));
  return utf16 ? (b.size() - 2) / 2 : b.size();
}

// Where the device writes the page's text. Its physical layout pads each line with spaces to its
// column, which a hostile page's layout can make grow with the square of its characters (each
// character a line of its own, each further right): past kMaxTextBytes — more than add_segment
// would take — nothing more is kept.
struct PageText {
  std::string text;
  bool too_large = false;
};

void append_text(void* out, const char* text, int len) {
  auto* page = static_cast<PageText*>(out);
  if (page->too_large || len <= 0) return;
  if (page->text.size() + static_cast<std::size_t>(len) > kMaxTextBytes) {
    page->too_large = true;
    return;
  }
  try {
    page->text.append(text, static_cast<std::size_t>(len));
  } catch (...) {  // nothing may cross poppler's code
    page->too_large = true;
  }
}

// poppler-cpp's page::text() device (physical layout, no raw order, diagonal text kept) that
// counts what the page draws and, past kPdfPageMaxChars or the deadline, keeps nothing more and
// lays nothing out.
class BoundedTextDev final : public TextOutputDev {
 public:
  BoundedTextDev(PageText* out, PageBudget* budget)
      : TextOutputDev(&append_text, out, true, 0, false, false), budget_(budget) {}

  void drawChar(GfxState* state, double x, double y, double dx, double dy, double originX, double originY, CharCode c,
                int nBytes, const Unicode* u, int uLen) override {
    if (budget_->draw(static_cast<std::size_t>(std::max(uLen, 1))))
      TextOutputDev::drawChar(state, x, y, dx, dy, originX, originY, c, nBytes, u, uLen);
  }
  // An ActualText span's text replaces the glyphs drawn inside it.
  void beginActualText(GfxState* state, const GooString* actual) override {
    if (budget_->draw(text_string_chars(actual))) TextOutputDev::beginActualText(state, actual);
  }
  void endActualText(GfxState* state) override {
    if (!budget_->stopped()) TextOutputDev::endActualText(state);
  }
  void stroke(GfxState* state) override {
    if (budget_->tick()) TextOutputDev::stroke(state);
  }
  void fill(GfxState* state) override {
    if (budget_->tick()) TextOutputDev::fill(state);
  }
  void eoFill(GfxState* state) override {
    if (budget_->tick()) TextOutputDev::eoFill(state);
  }
  void endPage() override {
    if (!budget_->stopped()) TextOutputDev::endPage();  // the layout and the text's output
  }

 private:
  PageBudget* budget_;
};

void quiet(ErrorCategory, Goffset, const char*) {}

// poppler's global parameters, for the process's life (poppler-cpp's documents share them).
void init_poppler() {
  static std::once_flag once;
  std::call_once(once, [] {
    // poppler reports syntax errors on stderr by default: the analyzer's answer carries them instead.
    poppler::set_debug_error_function([](const std::string&, void*) {}, nullptr);
    static auto* params = new GlobalParamsIniter(&quiet);  // never freed: poppler-cpp's documents come and go
    (void)params;
  });
}

// The page's text as UTF-8 (poppler's output, made valid: poppler-cpp cut it at the first
// surrogate or U+0000 a font mapped to; now U+FFFD and nothing). Throws BadDocument when the page
// is stopped or its text is too large.
std::string page_text(PDFDoc& pdf, int number, PageBudget& budget, const Deadline& deadline) {
  PageText out;
  budget.chars = 0;
  {
    BoundedTextDev dev(&out, &budget);
    if (dev.isOk()) pdf.displayPage(&dev, number, 72, 72, 0, false, true, false, &abort_page, &budget);
  }
  if (budget.too_slow) deadline.check();
  if (budget.too_much_text)
    throw BadDocument("the PDF draws more text than allowed: page " + std::to_string(number) + " draws more than " +
                      std::to_string(kPdfPageMaxChars) + " characters");
  if (out.too_large)
    throw BadDocument("the document's text is larger than the " + std::to_string(kMaxTextBytes) + " bytes allowed");
  out.text.erase(std::remove(out.text.begin(), out.text.end(), '\0'), out.text.end());
  return dozor::text::to_valid_utf8(out.text);
}

// Characters other than white space (a UTF-8 lead byte counts one character).
std::size_t visible_chars(const std::string& s) {
  std::size_t n = 0;
  for (char ch : s) {
    auto c = static_cast<unsigned char>(ch);
    if ((c & 0xC0) != 0x80 && c != ' ' && c != '\t' && c != '\r' && c != '\n' && c != '\f') ++n;
  }
  return n;
}

// kOcrRenderDpi, lowered for a page so large that it would pass kImageMaxPixels.
double render_dpi(const poppler::page& page) {
  auto box = page.page_rect(poppler::media_box);
  double inches2 = std::abs(box.width() / 72.0) * std::abs(box.height() / 72.0);
  double dpi = kOcrRenderDpi;
  if (inches2 > 0 && dpi * dpi * inches2 > static_cast<double>(kImageMaxPixels))
    dpi = std::floor(std::sqrt(static_cast<double>(kImageMaxPixels) / inches2));
  return std::max(dpi, 1.0);
}

std::string ocr_page(const poppler::page& page, const Ocr& ocr, const Deadline& deadline) {
  poppler::page_renderer renderer;
  renderer.set_image_format(poppler::image::format_gray8);
  renderer.set_render_hint(poppler::page_renderer::antialiasing, true);
  renderer.set_render_hint(poppler::page_renderer::text_antialiasing, true);
  double dpi = render_dpi(page);
  poppler::image img = renderer.render_page(&page, dpi, dpi);
  if (!img.is_valid() || img.width() <= 0 || img.height() <= 0) return {};
  GrayImage gray;
  gray.width = img.width();
  gray.height = img.height();
  gray.dpi = static_cast<int>(dpi);
  gray.pixels.resize(static_cast<std::size_t>(gray.width) * static_cast<std::size_t>(gray.height));
  const char* data = img.const_data();
  for (int y = 0; y < gray.height; ++y) {
    const auto* row =
        reinterpret_cast<const unsigned char*>(data + static_cast<std::ptrdiff_t>(y) * img.bytes_per_row());
    std::copy(row, row + gray.width, gray.pixels.begin() + static_cast<std::ptrdiff_t>(y) * gray.width);
  }
  return ocr.read_page(gray, deadline);
}

}  // namespace

Document extract_pdf(std::string_view bytes, const ExtractLimits& limits) {
  init_poppler();
  Document doc;
  doc.type = "pdf";
  // The budget outlives the document's streams, which point at it.
  PageBudget budget;
  budget.deadline = &limits.deadline;
  auto pdf = std::make_unique<PDFDoc>(new BudgetStream(bytes.data(), static_cast<Goffset>(bytes.size()), 0,
                                                       static_cast<Goffset>(bytes.size()), Object(objNull), &budget));
  // Reading the file stops at the deadline too (a broken one is reconstructed from its bytes).
  auto past_deadline = [&] {
    if (budget.too_slow) limits.deadline.check();
  };
  past_deadline();
  if (!pdf->isOk()) {
    if (pdf->getErrorCode() == errEncrypted || bytes.find("/Encrypt") != std::string_view::npos)
      throw BadDocument("the PDF is encrypted");
    throw BadDocument("the PDF is malformed and cannot be read");
  }
  int pages = pdf->getNumPages();
  past_deadline();
  // poppler repairs what it can; a file with no readable page tree has nothing to analyse.
  if (pages <= 0) throw BadDocument("the PDF is malformed: no readable pages");
  if (static_cast<std::size_t>(pages) > limits.max_pages)
    throw BadDocument("the PDF has " + std::to_string(pages) + " pages, more than the " +
                      std::to_string(limits.max_pages) + " allowed");
  doc.pages = static_cast<std::size_t>(pages);
  // OCR renders with poppler-cpp: its document is loaded only for a page that needs it.
  std::vector<char> data;  // poppler-cpp keeps a pointer while its document lives
  std::unique_ptr<poppler::document> rendered;
  for (int i = 0; i < pages; ++i) {
    limits.deadline.check();
    bool readable = pdf->getPage(i + 1) != nullptr;
    past_deadline();
    if (!readable) continue;
    std::string text = page_text(*pdf, i + 1, budget, limits.deadline);
    if (visible_chars(text) < kOcrTextLayerMinChars) {  // a scan, or a page with no text at all
      std::unique_ptr<poppler::page> page;
      if (limits.ocr && doc.ocr_pages < kOcrMaxPages) {
        if (!rendered) {
          data.assign(bytes.begin(), bytes.end());
          rendered.reset(poppler::document::load_from_raw_data(data.data(), static_cast<int>(data.size())));
        }
        if (rendered) page.reset(rendered->create_page(i));
      }
      if (page) {
        std::string read = ocr_page(*page, *limits.ocr, limits.deadline);
        text += text.empty() ? read : "\n" + read;  // the text layer, if any, first
        ++doc.ocr_pages;
      } else {
        ++doc.pages_without_text;
      }
    }
    add_segment(doc, {"page", std::to_string(i + 1), ""}, std::move(text));
  }
  return doc;
}

}  // namespace dozor::analyzer
