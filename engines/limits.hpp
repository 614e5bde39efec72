#pragma once
// Every bound on what a client may send, in one place (docs/limits.md). Handlers validate with
// these; engines that enforce one refer to the same name. Each is tested at N (accepted) and
// N+1 (refused) by tests/integration/test_limits.py. Operator-tunable bounds (services and
// groups per user, check slots, body size, login budgets) are config keys instead
// (engines/config/config.hpp, docs/development.md).
#include <cstddef>
#include <cstdint>

namespace dozor::limits {

// Requests
inline constexpr std::size_t kJsonDepth = 32;        // nesting of a JSON body
inline constexpr std::size_t kRequestHeaders = 100;  // FastCGI params of one request
inline constexpr std::size_t kUrlLength = 2083;      // a monitored URL, after normalisation

// Users
inline constexpr std::size_t kUsernameChars = 64;         // users.username VARCHAR(64)
inline constexpr std::size_t kUsernameInputBytes = 1024;  // refused before any Unicode work
inline constexpr std::size_t kPasswordMaxChars = 256;     // the minimum is auth.min_password_length

// Services
inline constexpr std::size_t kServiceNameChars = 255;
inline constexpr std::int64_t kCheckIntervalMin = 10;                       // seconds
inline constexpr std::int64_t kCheckIntervalMax = std::int64_t{7} * 86400;  // one week
inline constexpr std::int64_t kSlowMsMax = 600000;                          // ten minutes
inline constexpr std::size_t kKeywordChars = 255;
inline constexpr std::size_t kExpectedStatusChars = 255;
inline constexpr std::size_t kExpectedStatusItems = 32;  // codes or ranges in one expected_status

// Groups and their status pages
inline constexpr std::size_t kGroupNameChars = 255;
inline constexpr std::size_t kGroupTextChars = 2000;  // description, status-page announcement
inline constexpr std::size_t kStatusSlugMinChars = 3;
inline constexpr std::size_t kStatusSlugMaxChars = 64;

// Notification channels
inline constexpr std::size_t kTelegramTokenChars = 256;
inline constexpr std::size_t kTelegramChatIdChars = 128;
inline constexpr std::size_t kSmtpHostChars = 253;  // a DNS name
inline constexpr std::size_t kSmtpCredentialChars = 256;

// Kiosk
inline constexpr int kKioskIntervalMin = 5;  // seconds
inline constexpr int kKioskIntervalMax = 86400;

// Scanners (engines/net/scan_client.hpp, engines/audit, engines/crawl; docs/audit.md)
inline constexpr std::size_t kScanBodyBytes = std::size_t{5} * 1024 * 1024;  // decoded bytes of one answer
inline constexpr std::int64_t kScanRequestTimeoutMs = 10000;                 // one request, redirects included
inline constexpr int kScanRedirects = 5;
inline constexpr std::size_t kScanPerHostConcurrency = 8;   // requests in flight to one origin
inline constexpr std::int64_t kScanPerHostIntervalMs = 10;  // polite gap between request starts to one origin
inline constexpr std::size_t kScanInFlight = 32;            // requests in flight in one scan
inline constexpr std::size_t kScanHeaderFields = 200;       // header fields kept per answer
inline constexpr std::size_t kScanHeaderValueBytes = 8192;  // one recorded header value
inline constexpr std::size_t kEvidenceExcerptBytes = 4096;  // body excerpt of an exchange record
inline constexpr int kCrawlDepthDefault = 2;
inline constexpr int kCrawlDepthMax = 10;
inline constexpr int kCrawlPagesDefault = 50;
inline constexpr int kCrawlPagesMax = 2000;
inline constexpr std::int64_t kCrawlTimeBudgetMs = 60000;  // a whole crawl, whatever is left undone
inline constexpr std::size_t kCrawlQueuedUrls = 20000;     // distinct URLs remembered (crawl traps end here)
inline constexpr std::size_t kCrawlItems = 5000;           // items of one kind (links, e-mails …) kept per crawl
inline constexpr std::size_t kCrawlSitemaps = 20;          // sitemap files read (indexes included)

}  // namespace dozor::limits
