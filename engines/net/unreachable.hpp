#pragma once
// A target that gave no HTTP answer at all (docs/audit.md "A target that cannot be reached"):
// which failures mean that, the one sentence that says so ("could not reach 127.0.0.1:9:
// connection refused"), and the typed error fcgi/error_mapping.cpp answers as 502 with it.
#include <stdexcept>
#include <string>
#include <string_view>

namespace dozor::net {

// An audit's or scan's target gave no HTTP answer: 502 {"detail": what()}, nothing stored.
struct TargetUnreachable : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// True for the failures (net::to_string(CheckError) names, as a crawl's page records them) where
// no HTTP answer arrived: "unreachable" (no allowed address, unknown names included), "timeout",
// "connect", "tls", "transport". A redirect problem, a too-large answer or a request outside the
// scan's scope are answers (or our own choice), so they are not. Nor is a "tls" failure whose
// `error` is a verdict on the certificate (untrusted, self-signed, expired, another host's): the
// server took the handshake as far as showing its certificate, and judging that certificate is
// the audit's TLS part's work (tls-untrusted-certificate …), not a reason to report nothing.
bool never_answered(std::string_view error_kind, std::string_view error = {});

// The reason in plain words: "connection refused", "timed out after 3000 ms", "timed out", "the
// host name does not resolve, or only to addresses the egress policy refuses", "TLS handshake
// failed: <libcurl's text>", else `error` (the fetch's own text, CheckOutcome::error).
std::string no_answer_reason(std::string_view error_kind, std::string_view error);

// "could not reach host:port: reason" for `url` (the scheme's port when the URL names none).
std::string unreachable_detail(std::string_view url, std::string_view reason);

}  // namespace dozor::net
