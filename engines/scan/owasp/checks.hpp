#pragma once
// The active checks of the OWASP scan, one file each (docs/scan.md "OWASP scan"). A check sends
// benign markers only, proves what it reports from the answer (never the status alone) and adds
// at most one finding per parameter; it returns early once the prober stops.
#include <string>
#include <string_view>
#include <vector>

#include "engines/scan/owasp/oob.hpp"
#include "engines/scan/owasp/points.hpp"
#include "engines/scan/owasp/scan_context.hpp"

namespace dozor::owasp {

// Per parameter (A03 injection, A01 access control).
void check_xss(Scan& scan, const Point& point);
bool check_sqli_error(Scan& scan, const Point& point, const Baseline& base);    // true: found
bool check_sqli_boolean(Scan& scan, const Point& point, const Baseline& base);  // true: found
void check_sqli_time(Scan& scan, const Point& point, const Baseline& base);
void check_path_traversal(Scan& scan, const Point& point, const Baseline& base);
void check_open_redirect(Scan& scan, const Point& point);
void check_crlf(Scan& scan, const Point& point);
void check_ssti(Scan& scan, const Point& point, const Baseline& base);
void check_command_injection(Scan& scan, const Point& point, const Baseline& base);

// Out of band too (docs/scan.md "XXE and SSRF"): XXE per endpoint that takes XML (A05), SSRF per
// URL-like parameter (A10).
void check_xxe(Scan& scan, Oob& oob, const std::string& url);
void check_ssrf(Scan& scan, Oob& oob, const Point& point, const Baseline& base);
// The documents and the answer test they use (unit-tested).
std::string xxe_internal_document(const std::string& first_half, const std::string& second_half);
std::string xxe_external_document(const std::string& url, bool parameter_entity);
bool metadata_answer(std::string_view body);

// Per site.
void check_cors(Scan& scan, const std::vector<std::string>& urls);
void check_methods(Scan& scan, const std::string& target);

// DOM-based XSS, read from a page's inline scripts (no request): a location/referrer/window.name
// source flowing into an HTML or code sink. `exchanges` are the page's (evidence).
void check_dom_xss(std::vector<audit::Finding>& findings, const std::string& page_url, const crawl::PageFacts& facts,
                   const std::vector<net::Exchange>& exchanges);

// "parameter q of http://host/search", "header Referer of …" — the place a per-point finding names.
std::string where_of(const Point& point);

}  // namespace dozor::owasp
