#pragma once
// Seeds of a crawl: robots.txt (Allow, Disallow and Sitemap lines) and sitemaps (urlset and
// sitemapindex documents, read with pugixml).
#include <string>
#include <string_view>
#include <vector>

namespace dozor::crawl {

struct Robots {
  std::vector<std::string> allow;     // paths for "User-agent: *" (or every group when none is *)
  std::vector<std::string> disallow;  // the same for Disallow
  std::vector<std::string> sitemaps;  // absolute URLs of Sitemap lines (any group)
};

Robots parse_robots(std::string_view text);

struct Sitemap {
  bool valid = false;                 // a urlset or sitemapindex document
  std::vector<std::string> urls;      // <urlset><url><loc>
  std::vector<std::string> sitemaps;  // <sitemapindex><sitemap><loc>
};

Sitemap parse_sitemap(std::string_view xml);

}  // namespace dozor::crawl
