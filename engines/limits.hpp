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
// A new password's estimated guesses (engines/auth/password_strength.hpp): at least this many,
// zxcvbn's score 3 ("safely unguessable"); 8 random characters are 10^8 + 1. The estimate reads
// the first kPasswordEstimateChars characters.
inline constexpr double kPasswordMinGuesses = 1e8;
inline constexpr std::size_t kPasswordEstimateChars = 128;

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
inline constexpr std::size_t kChannelsPerUser = 20;  // channels of one user (409 past it)
inline constexpr std::size_t kEmailRecipients = 10;  // to_addrs of one e-mail channel
// POST notify/test (docs/notifications.md "Test messages"): every channel is sent to at once and
// the whole request ends within this many seconds; one test in flight per user.
inline constexpr int kNotifyTestSeconds = 10;

// Kiosk
inline constexpr int kKioskIntervalMin = 5;  // seconds
inline constexpr int kKioskIntervalMax = 86400;
inline constexpr int kKioskSeriousFindings = 5;  // high/critical titles of the latest audit beside a site

// Monitoring locations (config monitor.location, monitor.confirm_locations)
inline constexpr std::size_t kLocationChars = 64;  // checks.location, daemon_heartbeats.location
inline constexpr int kMaxLocations = 16;           // service_state.failed_locations holds this many

// File vault (per-file size, quota, trash and session times are config keys: vault.*)
inline constexpr std::size_t kVaultPartHeaderBytes = 8192;  // the header block of one multipart part
inline constexpr std::size_t kVaultUploadParts = 1000;      // parts in one upload request
inline constexpr std::size_t kVaultFieldBytes = 65536;      // a non-file multipart field
inline constexpr std::size_t kVaultListEntries = 100000;    // entries one listing returns
inline constexpr std::int64_t kVaultMultipartOverhead = std::int64_t{1}
                                                        << 20;  // an upload body beyond vault.max_upload
// Document editing (docs/vault.md "Document editing")
inline constexpr std::size_t kVaultDocTokenBytes = 16384;     // a document server's JWT (callback, header)
inline constexpr std::size_t kVaultDocCallbackBytes = 65536;  // the callback's JSON body
inline constexpr std::int64_t kVaultDocFetchBytes = std::int64_t{100} << 20;  // an edited file fetched back
inline constexpr int kVaultDocFetchSeconds = 60;                              // the whole fetch of an edited file
inline constexpr int kVaultDocConfigSeconds = 86400;                          // the editor config token's lifetime
inline constexpr int kVaultDocDownloadSeconds = 600;                          // a signed download URL's lifetime
inline constexpr std::size_t kVaultDocKeyBytes = 128;                         // document.key (the protocol's bound)

// HTML (engines/text/html_parse): markup nested deeper than this is not parsed
inline constexpr std::size_t kHtmlNesting = 512;

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
// Recurring scans (POST /owasp/schedule/{service_id}?interval_hours=): hours between runs.
inline constexpr int kScheduleHoursDefault = 24;
inline constexpr int kScheduleHoursMax = 720;
// The template scanner task's "severity" option ("info,low,medium,high,critical" and some slack).
inline constexpr std::size_t kSeverityListChars = 64;
// The scan log (docs/scan.md "Who may scan what"): entries older than this are purged by dozord.
inline constexpr int kScanLogKeepDays = 180;
inline constexpr int kCrawlDepthDefault = 2;
inline constexpr int kCrawlDepthMax = 10;
inline constexpr int kCrawlPagesDefault = 50;
inline constexpr int kCrawlPagesMax = 2000;
inline constexpr std::int64_t kCrawlTimeBudgetMs = 60000;  // a whole crawl, whatever is left undone
inline constexpr std::size_t kCrawlQueuedUrls = 20000;     // distinct URLs remembered (crawl traps end here)
inline constexpr std::size_t kCrawlItems = 5000;           // items of one kind (links, e-mails …) kept per crawl
inline constexpr std::size_t kCrawlSitemaps = 20;          // sitemap files read (indexes included)

}  // namespace dozor::limits

// The document analyzer (engines/analyzer, docs/analyzer.md). The document size itself is the
// config key analyzer.max_document; these bound what one document may expand into.
namespace dozor::limits::analyzer {
inline constexpr std::size_t kZipMaxEntries = 10000;               // entries in a DOCX/XLSX/ODT container
inline constexpr std::uint64_t kZipMaxTotalBytes = 256ULL << 20;   // uncompressed, all entries read
inline constexpr std::uint64_t kZipMaxEntryBytes = 64ULL << 20;    // uncompressed, one XML part
inline constexpr std::uint64_t kZipMaxRatio = 200;                 // uncompressed / compressed, one entry
inline constexpr std::uint64_t kZipRatioFloorBytes = 1ULL << 20;   // the ratio applies above this size
inline constexpr std::size_t kPdfMaxPages = 2000;                  // pages of one PDF
inline constexpr std::size_t kSpreadsheetMaxCells = 1000000;       // non-empty cells of one workbook
inline constexpr std::size_t kRtfMaxDepth = 256;                   // nesting of RTF groups
inline constexpr std::size_t kHtmlMaxDepth = 512;                  // element nesting walked
inline constexpr std::size_t kMaxSegments = 2000000;               // paragraphs, cells, lines, pages
inline constexpr std::size_t kMaxTextBytes = 128ULL << 20;         // extracted text of one document
inline constexpr std::size_t kMaxFindings = 10000;                 // findings listed (all are counted)
inline constexpr std::size_t kContextWindowChars = 64;             // context words are looked for this near
inline constexpr std::size_t kManifestMaxFileBytes = 16ULL << 20;  // one file of the model bundle
inline constexpr int kVaultCheckSeconds = 100;           // the vault's "check for personal data" (nginx allows 120 s)
inline constexpr int kVaultMalwareScanSeconds = 100;     // one uploaded file's malware check (vault.clamav)
inline constexpr long long kMalwareScanMillis = 90'000;  // ClamAV's own limit: ends before the vault stops waiting
inline constexpr long long kMalwareMaxMemberBytes = 1LL << 30;      // one file inside an archive, read whole
inline constexpr long long kMalwareMaxScanBytes = (1LL << 31) - 1;  // all of them (ClamAV's ceiling)
inline constexpr std::size_t kQuotaUsers = 4096;                    // users whose hourly budget is tracked at once
// OCR (analyzer.ocr): an image's pixels are checked from its header before it is decoded; a PDF
// page is rendered for OCR when its text layer has fewer visible characters than the minimum.
inline constexpr std::uint64_t kImageMaxPixels = 40000000;  // one image or rendered page (A4 at 600 dpi fits)
inline constexpr std::size_t kOcrMaxPages = 100;            // pages read by OCR in one document
inline constexpr int kOcrRenderDpi = 300;                   // PDF pages rendered for OCR (lower for huge pages)
inline constexpr std::size_t kOcrTextLayerMinChars = 16;    // visible characters of a page not to OCR it

// What a document's text derives (issue 26 §1, docs/analyzer.md "Formats and limits"): every byte
// of a segment — text, context, location — counts against kMaxTextBytes, and so does the
// normalised text the detector matches.
inline constexpr std::size_t kCellContextBytes = 256;  // a cell's context: its header, the nearest cells of its row
inline constexpr std::size_t kMaxBiks = 256;           // distinct BIKs that key accounts (past it, context decides)
// Characters one PDF page draws, counted while poppler draws them (extract_pdf.cpp): every glyph,
// again each time a form XObject is drawn again, an ActualText span by its length. Past it the
// page stops and the document is refused: poppler's text page holds ~300 bytes per character and
// its time grows faster than their number (a page drawing one 20,000-character form 2,000 times
// passed 2.7 GB and two minutes). Real pages draw a few thousand.
inline constexpr std::size_t kPdfPageMaxChars = 200000;

// The vault's checks for personal data in flight (each reads up to analyzer.max_document into
// dozor-fcgi's memory and holds a thread), per user and per host (every worker process
// together); beyond them 429 with Retry-After (docs/vault.md "Check for personal data").
inline constexpr int kVaultChecksPerUser = 1;
inline constexpr int kVaultChecksInFlight = 4;
inline constexpr long kVaultCheckRetryAfterSeconds = 5;
}  // namespace dozor::limits::analyzer

// Audits (engines/audit/full_audit.hpp, db/audit_repo.hpp; docs/audit.md)
namespace dozor::limits {
inline constexpr std::size_t kPassiveEvidencePerFinding = 10;  // occurrences kept per passive rule
inline constexpr std::size_t kAuditFindings = 300;             // findings stored per audit (worst first)
inline constexpr std::size_t kAuditEvidencePerFinding = 20;    // evidence records stored per finding
inline constexpr std::size_t kAuditsKeptPerTarget = 10;        // newest audits kept per user and target
inline constexpr std::size_t kEvidenceExcerptChars = 1000;     // one stored evidence excerpt
inline constexpr int kEvidenceListDefault = 20;                // GET …/evidence/{target}?limit
inline constexpr int kEvidenceListMax = 100;
inline constexpr std::size_t kBatchAuditConcurrency = 4;  // audits of one batch in flight at once
inline constexpr std::size_t kExposureProbes = 64;        // probes in share/audit/exposures/exposures.json
inline constexpr std::size_t kExposureBodyBytes =
    std::size_t{256} * 1024;                               // decoded bytes of a probe's answer kept for its check
inline constexpr std::size_t kExposureExcerptBytes = 300;  // the matched text shown as a finding's excerpt
// The site's documents read for personal data (engines/audit/documents): how many, how large
// each (larger ones are listed as skipped), masked samples shown per finding.
inline constexpr std::size_t kAuditDocuments = 10;
inline constexpr std::size_t kAuditDocumentBytes = std::size_t{20} << 20;
inline constexpr std::size_t kAuditDocumentSamples = 5;
// TLS check (engines/audit/tls): one handshake probe (also capped by scanner.request_timeout), the
// whole check (11 probes and the HSTS fetch; also capped by the audit's deadline), the HSTS answer.
// Name lookups of net::resolve_host (TLS, geolocation) still running per process: one abandoned
// after its timeout keeps a thread until the resolver gives up.
inline constexpr int kPendingLookups = 16;
inline constexpr std::int64_t kTlsProbeTimeoutMs = 5000;
inline constexpr std::int64_t kTlsCheckBudgetMs = 30000;
inline constexpr std::size_t kTlsHstsBodyBytes = 65536;
}  // namespace dozor::limits

// Technology detection and vulnerable JavaScript libraries (engines/audit/tech, docs/audit.md).
namespace dozor::limits::tech {
inline constexpr std::size_t kHtmlBytes = std::size_t{1} << 20;          // HTML of one page the fingerprints read
inline constexpr std::size_t kProbeBodyBytes = std::size_t{256} * 1024;  // body of robots.txt or a probe read
inline constexpr std::size_t kProbes = 12;                               // distinct probe paths requested per site
inline constexpr int kProbeRedirects = 2;                                // redirects a probe follows
inline constexpr std::size_t kEvidencePerTechnology = 5;                 // places kept per detected technology
inline constexpr std::size_t kEvidencePerLibrary = 10;                   // script URLs kept per vulnerable library
inline constexpr std::size_t kVersionChars = 20;        // a captured version longer than this is dropped
inline constexpr std::size_t kMatchExcerptChars = 160;  // the matched text shown as evidence
inline constexpr std::size_t kScriptBodies = 10;        // scripts fetched for banners (route only)
}  // namespace dozor::limits::tech

// The DOCX report of an audit (engines/report, docs/audit.md "DOCX reports").
namespace dozor::limits::report {
inline constexpr std::size_t kTopFindings = 5;          // findings named in the executive summary
inline constexpr std::size_t kEvidencePerFinding = 10;  // evidence records shown per finding (the rest counted)
}  // namespace dozor::limits::report

// The template scanner (engines/scan/templates, docs/audit.md "Template scanner").
namespace dozor::limits::templates {
inline constexpr std::size_t kFileBytes = std::size_t{256} * 1024;  // one template file; larger is skipped
inline constexpr std::size_t kTemplates = 5000;                     // template files read from all folders
inline constexpr std::size_t kRequestsPerTemplate = 32;             // requests (paths, raw) of one template
inline constexpr std::size_t kMatchersPerBlock = 32;                // matchers or extractors of one request block
inline constexpr std::size_t kDslChars = 2048;                      // one dsl expression
inline constexpr std::size_t kDslDepth = 32;                        // nesting of a dsl expression
inline constexpr int kRedirects = 10;                               // max-redirects is capped at this
inline constexpr std::size_t kBodyBytes = std::size_t{1} << 20;     // decoded bytes of an answer matched
inline constexpr std::size_t kActiveTemplates = 16;                 // templates whose requests are in flight at once
inline constexpr std::size_t kExtractedValues = 10;                 // values kept per finding
inline constexpr std::size_t kExcerptBytes = 300;                   // matched text shown as a finding's excerpt
inline constexpr std::size_t kSkippedListed = 500;                  // skipped templates listed in an answer
}  // namespace dozor::limits::templates

// The OWASP active scan (engines/scan/owasp, docs/scan.md "OWASP scan").
namespace dozor::limits::owasp {
inline constexpr int kRequestsPerSecond = 10;          // per origin, the crawl included
inline constexpr std::size_t kRequestCap = 3000;       // requests of one scan, the crawl excluded
inline constexpr std::int64_t kScanBudgetMs = 90000;   // a whole scan, crawl included (nginx waits 120 s)
inline constexpr std::int64_t kCrawlShareMs = 20000;   // at most this much of it crawling
inline constexpr std::size_t kInjectionPoints = 200;   // parameters tested (URL × parameter)
inline constexpr std::size_t kCorsTargets = 5;         // distinct pages asked with a foreign Origin
inline constexpr int kSleepSeconds = 2;                // time-based probes sleep this, then twice this
inline constexpr std::size_t kExcerptChars = 300;      // response excerpt of a finding's evidence
inline constexpr std::size_t kSqlErrorPatterns = 200;  // patterns in share/audit/owasp/sql_errors.json
inline constexpr std::size_t kNotifiedTitles = 5;      // titles a "new serious findings" message lists
inline constexpr std::size_t kPathPoints = 20;         // numeric path segments tested (one URL per pattern)
inline constexpr std::size_t kHeaderPages = 20;        // pages whose User-Agent and Referer are probed
inline constexpr std::size_t kDomPages = 50;           // pages whose inline scripts are read
// Inline script text read per page for DOM sinks.
inline constexpr std::size_t kDomScriptBytes = std::size_t{256} * 1024;
}  // namespace dozor::limits::owasp

// Endpoint discovery (engines/scan/endpoints, docs/scan.md "Endpoint discovery").
namespace dozor::limits::endpoints {
inline constexpr int kTimeoutDefault = 5;  // seconds, ?timeout= and the task option
inline constexpr int kTimeoutMin = 1;
inline constexpr int kTimeoutMax = 60;
inline constexpr int kRequestsPerSecond = 10;  // per origin, the crawl included
inline constexpr int kCrawlSharePercent = 40;  // of the timeout spent crawling
inline constexpr int kCrawlDepth = 3;
inline constexpr int kCrawlPages = 40;
inline constexpr std::size_t kCrawlScripts = 20;                      // same-origin scripts read for paths
inline constexpr std::size_t kWordlistPaths = 300;                    // paths in share/audit/endpoints/paths.json
inline constexpr std::size_t kDocumentPaths = 40;                     // well-known OpenAPI/Swagger locations
inline constexpr std::size_t kDocumentsRead = 10;                     // API documents parsed per run
inline constexpr std::size_t kDocumentBytes = std::size_t{2} << 20;   // one API document
inline constexpr std::size_t kDocumentDepth = 64;                     // nesting of a JSON/YAML API document
inline constexpr std::size_t kOperations = 2000;                      // operations read from all API documents
inline constexpr std::size_t kParameters = 100;                       // parameters kept per endpoint
inline constexpr std::size_t kEndpoints = 5000;                       // endpoints in one answer
inline constexpr std::size_t kProbes = 200;                           // discovered paths asked for their status
inline constexpr std::size_t kCompareBytes = std::size_t{64} * 1024;  // body kept to compare with the catch-all
inline constexpr double kCatchAllSimilarity = 0.9;  // this similar to the catch-all answer: not an endpoint
}  // namespace dozor::limits::endpoints
// Out-of-band interactions (/oast/{token}) and the XXE and SSRF checks (docs/scan.md "XXE and SSRF").
namespace dozor::limits::oast {
inline constexpr std::int64_t kWaitMs = 3000;           // the scanner waits this long for hits after its last probe
inline constexpr std::int64_t kPollMs = 250;            // and reads the hits this often meanwhile
inline constexpr int kProbeTtlSeconds = 3600;           // hits after this are refused (404) and not stored
inline constexpr int kRetentionDays = 7;                // expired probes and their hits are purged after this
inline constexpr int kPurgeChunk = 500;                 // probes deleted per purge statement
inline constexpr int kHitsPerProbe = 20;                // hits stored per token; more are answered, not stored
inline constexpr std::size_t kHeaders = 40;             // headers stored per hit
inline constexpr std::size_t kHeaderChars = 512;        // characters stored per header value
inline constexpr std::size_t kBodyExcerptChars = 1024;  // characters of a hit's body stored
inline constexpr std::size_t kPathChars = 2048;         // characters of a hit's request target stored
inline constexpr std::size_t kXmlEndpoints = 10;        // endpoints sent XML documents per scan
inline constexpr std::size_t kSsrfPoints = 30;          // URL-like parameters probed per scan
}  // namespace dozor::limits::oast

// The API check (engines/scan/api, docs/scan.md "API check").
namespace dozor::limits::api {
inline constexpr int kRequestsPerSecond = 10;                       // per origin
inline constexpr std::size_t kRequestCap = 600;                     // requests of one check
inline constexpr std::int64_t kBudgetMs = 60000;                    // an inline check (tasks: tasks.task_seconds)
inline constexpr std::size_t kDocuments = 3;                        // OpenAPI/Swagger documents read per check
inline constexpr std::size_t kDocumentLinks = 10;                   // document-like links read from the target page
inline constexpr std::size_t kOperations = 60;                      // operations checked (all documents together)
inline constexpr std::size_t kGraphqlPaths = 8;                     // GraphQL locations asked
inline constexpr std::size_t kCorsProbes = 5;                       // operations asked with a foreign Origin
inline constexpr std::size_t kBodyBytes = std::size_t{256} * 1024;  // answer bytes judged
inline constexpr std::size_t kExcerptChars = 300;                   // response excerpt of a finding's evidence
inline constexpr std::size_t kJwtBytes = 8192;                      // a token longer than this is not parsed
inline constexpr std::size_t kJwtsHarvested = 10;                   // distinct tokens kept from answers and documents
inline constexpr std::size_t kJwtSecrets = 1000;                    // entries of share/audit/api/jwt-secrets.txt
inline constexpr std::size_t kJwtSecretBytes = 128;                 // one entry
inline constexpr std::size_t kJsonNodes = 20000;                    // values walked for sensitive fields per answer
inline constexpr std::size_t kJsonDepth = 32;                       // nesting walked
inline constexpr std::size_t kSensitiveHits = 10;                   // fields reported per answer
inline constexpr int kEnumerationIds = 2;                           // ids 1..N asked without credentials
}  // namespace dozor::limits::api

// The auth scan (engines/scan/auth, docs/scan.md "Auth scan").
namespace dozor::limits::auth {
inline constexpr int kRequestsPerSecond = 5;             // per origin, crawls included: login forms are touchy
inline constexpr std::size_t kRequestCap = 400;          // requests of one scan, the crawls excluded
inline constexpr std::int64_t kScanBudgetMs = 60000;     // a whole inline scan (nginx waits 120 s)
inline constexpr std::int64_t kCrawlShareMs = 15000;     // each of the two crawls (anonymous, logged in)
inline constexpr int kCrawlDepth = 2;                    // both crawls
inline constexpr int kCrawlPages = 30;                   // pages of each crawl
inline constexpr std::size_t kLoginForms = 3;            // login forms judged per scan
inline constexpr std::size_t kLoginPaths = 12;           // well-known login paths probed (the list in auth_scan.cpp)
inline constexpr int kLockoutAttempts = 6;               // wrong passwords sent to test for lockout/rate limit
inline constexpr std::size_t kTimingSamples = 5;         // timed failed logins per side (likely user, unknown users)
inline constexpr std::int64_t kTimingMarginMs = 100;     // the gap between the two sides that is enumeration
inline constexpr std::size_t kTimingForms = 2;           // login forms timed per scan (the probe user's failures)
inline constexpr std::size_t kPanels = 100;              // panels in share/audit/auth/default-credentials.json
inline constexpr std::size_t kDefaultTriesPerPanel = 3;  // credential pairs tried per detected panel
inline constexpr std::size_t kUserOnlyRechecks = 30;     // logged-in pages fetched again anonymously
inline constexpr std::size_t kExcerptChars = 300;        // response excerpt of a finding's evidence
inline constexpr std::size_t kFieldChars = 256;          // a credential field (username, password, login_url)
inline constexpr std::size_t kHeaderChars = 4096;        // a cookie or bearer credential
}  // namespace dozor::limits::auth

// The scope of active scans (engines/scan/access, engines/scan/verify; docs/scan.md "Who may scan
// what").
namespace dozor::limits::scope {
inline constexpr std::size_t kOrigins = 16;               // origins one scan asks a decision for (its target included)
inline constexpr std::size_t kVerificationsPerUser = 50;  // proof-of-control tokens one user holds (409 past it)
inline constexpr int kValidDays = 90;                     // a proof of control lasts this long; verify again to renew
inline constexpr std::size_t kTokenBodyBytes = 1024;      // the token file's answer read
inline constexpr std::int64_t kDnsTimeoutMs = 3000;       // one DNS TXT query
inline constexpr std::size_t kTxtRecords = 50;            // TXT strings read from one answer
inline constexpr std::size_t kErrorChars = 255;           // a failed attempt's reason as stored
}  // namespace dozor::limits::scope
