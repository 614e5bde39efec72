// The crawl's seeds from a scanned site (engines/crawl/site_maps.hpp): sitemap XML read with
// pugixml (urlset, sitemapindex, anything else refused) and robots.txt text. Any bytes parse or
// are refused without throwing or crashing; no entity is ever fetched or expanded.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "engines/crawl/site_maps.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto map = dozor::crawl::parse_sitemap(text);
  if (!map.valid && (!map.urls.empty() || !map.sitemaps.empty())) __builtin_trap();  // refused means empty
  auto robots = dozor::crawl::parse_robots(text);
  (void)robots.sitemaps.size();
  return 0;
}
