#pragma once
// Where the XXE and SSRF checks aim (docs/scan.md "XXE and SSRF"): endpoints that take XML, and
// parameters that carry URLs. Pure functions of the crawl, unit-tested.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "engines/crawl/crawler.hpp"
#include "engines/scan/owasp/points.hpp"

namespace dozor::owasp {

// application/xml, text/xml, application/soap+xml, anything +xml (parameters ignored, any case).
bool is_xml_type(std::string_view content_type);

// A parameter that likely holds a URL the server fetches: its name (url, uri, dest, callback, feed,
// src, webhook … or ending in _url/Url) or its value (http://, https://, //host).
bool url_like(std::string_view name, std::string_view value);

// Endpoints worth an XML document, at most `max`, in this order: crawled pages answered with an
// XML type, paths that name XML services (xml, soap, wsdl, .asmx, xmlrpc, /ws), POST forms' actions
// and POST endpoints found in scripts. Same origin only (the crawl's), no duplicates, no query.
std::vector<std::string> xml_endpoints(const crawl::CrawlResult& crawl, std::size_t max);

// The injection points whose parameter is url_like, at most `max`.
std::vector<Point> url_points(const std::vector<Point>& points, std::size_t max);

}  // namespace dozor::owasp
