#pragma once
// What makes one check of a service a success, beyond "an HTTP answer in 2xx/3xx": the
// per-service options Uptime Kuma's users rely on (docs/monitoring.md, "Check options").
#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engines/limits.hpp"
#include "engines/net/multi_fetch.hpp"

namespace dozor::monitor {

constexpr std::size_t kMaxKeywordLength = limits::kKeywordChars;
constexpr std::size_t kMaxExpectedStatusLength = limits::kExpectedStatusChars;
// A keyword is looked for in this much of the body (the page's start, decoded).
constexpr std::size_t kKeywordBodyLimit = std::size_t{1} << 20;

struct StatusRange {
  int low = 0;
  int high = 0;
};

// "200-299,301, 404" → ranges; nullopt with `error` set when the text is not such a list of
// codes 100..599 (at most 32 items).
std::optional<std::vector<StatusRange>> parse_status_ranges(std::string_view text, std::string* error = nullptr);

// The options as stored with the service.
struct CheckRules {
  std::string method = "GET";                  // GET or HEAD
  std::optional<std::string> expected_status;  // null: 200..399
  std::optional<std::string> keyword;
  bool keyword_absent = false;  // the keyword must NOT appear
};

// A `tcp://host:port` target: the port is connected to, nothing is sent.
bool is_tcp_target(std::string_view target);

// The request that checks `target` under `rules`.
net::CheckRequest request_for(const std::string& target, const CheckRules& rules, std::chrono::milliseconds timeout);

struct Verdict {
  bool available = false;
  std::optional<std::string> error;  // why not, for people (null when available)
};

Verdict judge(const std::string& target, const CheckRules& rules, const net::CheckOutcome& outcome);

}  // namespace dozor::monitor
