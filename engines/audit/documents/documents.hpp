#pragma once
// The site's own documents read for personal data (issue 11 §2; docs/audit.md "Documents"):
// after the crawl, the PDF, DOCX, XLSX, ODT … files the crawler found on the site's origins are
// fetched through the scan client (egress policy, size cap, the audit's deadline) and handed to
// dozor-analyzer as the auditing user. A public document carrying personal data is a 152-FZ
// finding with the document's URL, the categories found and masked samples; the "documents"
// part lists every document read and what was found in it.
#include <boost/json/object.hpp>
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "engines/audit/observer.hpp"
#include "engines/crawl/crawler.hpp"
#include "engines/net/scan_client.hpp"

namespace dozor::audit::documents {

// How the step reaches the analyzer (engines/analyzer/remote.hpp).
struct AnalyzerAccess {
  std::string base_url;                      // empty: no analyzer; the step records `unavailable` as its error
  std::string token;                         // a bearer token on behalf of the auditing user
  std::chrono::milliseconds timeout{30000};  // one document's analysis
  std::string unavailable = "no analyzer is configured (analyzer.listen)";
};

// The crawl's documents on the origins its pages came from, distinct, in the order found, at
// most `max` (a site's own publications; documents on other sites are not this audit's).
std::vector<std::string> documents_of(const crawl::CrawlResult& crawl, std::size_t max);

// The finding for one analysed document (the analyzer's answer, masked values only); nullopt
// when it found no personal data. Severity follows the analyzer's risk: high (identifiers,
// special categories of art. 10) → high, medium (names with contacts) → medium, low → low.
std::optional<Finding> finding_for(const std::string& url, const boost::json::object& analysis);

// Fetches and analyses `urls` until `deadline` (or scan.cancel): the "documents" part, the
// findings, and the error that stopped the reading (the analyzer's absence or silence, the time
// budget; empty when every document was tried or the reading was cancelled).
struct Reading {
  boost::json::object part;
  std::vector<Finding> findings;
  std::string error;
};
Reading read(const std::vector<std::string>& urls, const net::EgressPolicy& policy, net::ScanOptions scan,
             std::chrono::steady_clock::time_point deadline, const AnalyzerAccess& access);

// The audit's step: the crawl's documents read in at most half of the time left.
Step step(AnalyzerAccess access);

}  // namespace dozor::audit::documents
