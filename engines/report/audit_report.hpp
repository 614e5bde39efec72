#pragma once
// The DOCX report of a stored audit or OWASP scan (docs/audit.md, "DOCX reports"): the JSON the
// audit store keeps, rendered in Russian or English — title page, executive summary, findings by
// severity with evidence and recommendations, security headers, technologies, TLS, compliance
// tables per requirement set, geolocation, checks that failed. Parts that are null or empty are
// left out, headings included.
#include <boost/json/object.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "engines/report/docx/document.hpp"

namespace dozor::report {

// The media type the report routes answer with.
inline constexpr std::string_view kDocxContentType =
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

enum class Lang { Ru, En };

std::optional<Lang> lang_from(std::string_view code);  // "ru" | "en"
std::string_view to_string(Lang lang);

struct ReportOptions {
  Lang lang = Lang::Ru;
  std::string created;  // document creation time, W3CDTF UTC; empty: now
};

// The document model (for tests and for other writers), and the .docx bytes.
docx::Document audit_document(const boost::json::object& audit, const ReportOptions& options);
std::string render_audit_docx(const boost::json::object& audit, const ReportOptions& options);

// "<prefix>-<host>-<YYYY-MM-DD>.docx": the host in Unicode (an IDN as its Unicode labels) in
// `utf8`; `ascii` is the fallback for old clients — the host in its A-label (punycode) form and
// anything outside [A-Za-z0-9._-] as '_'. `date` is the audit's day ("2026-11-23…"); when it does
// not start with a date the current UTC day is used.
struct ReportFilename {
  std::string utf8;
  std::string ascii;
};
ReportFilename report_filename(std::string_view target, std::string_view date, std::string_view prefix = "dozor-audit");
// The audit's target and finished_at (started_at when it has not finished); an OWASP scan's
// name starts "dozor-owasp-".
ReportFilename report_filename(const boost::json::object& audit);

// RFC 6266 Content-Disposition: attachment; filename="<ascii>"; filename*=UTF-8''<percent-encoded utf8>
std::string content_disposition(const ReportFilename& name);

}  // namespace dozor::report
