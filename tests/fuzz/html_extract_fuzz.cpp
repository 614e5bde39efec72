// HTML extraction (gumbo, the nesting pre-scan, URL resolution, contacts and JS paths) over
// hostile pages.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "engines/crawl/charset.hpp"
#include "engines/crawl/contacts.hpp"
#include "engines/crawl/html_extract.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view raw(reinterpret_cast<const char*>(data), size);
  auto html = dozor::crawl::to_utf8(raw, "");
  auto facts = dozor::crawl::extract_html(html, "https://example.com/dir/page.html");
  for (const auto& l : facts.links)
    if (l.url.rfind("http://", 0) != 0 && l.url.rfind("https://", 0) != 0) std::abort();  // only http(s) links
  (void)dozor::crawl::find_emails(facts.text);
  (void)dozor::crawl::find_phones(facts.text);
  for (const auto& s : facts.scripts) (void)dozor::crawl::find_js_paths(s.inline_text);
  return 0;
}
