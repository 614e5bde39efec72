#include "engines/monitor/check_rules.hpp"

#include <charconv>

#include "engines/text/utf8.hpp"

namespace dozor::monitor {
namespace {

constexpr std::size_t kMaxRanges = limits::kExpectedStatusItems;

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::optional<int> status_code(std::string_view s) {
  s = trim(s);
  int v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || s.size() != 3 || v < 100 || v > 599) return std::nullopt;
  return v;
}

bool in_ranges(int status, const std::vector<StatusRange>& ranges) {
  for (const auto& r : ranges)
    if (status >= r.low && status <= r.high) return true;
  return false;
}

}  // namespace

std::optional<std::vector<StatusRange>> parse_status_ranges(std::string_view text, std::string* error) {
  auto fail = [&](std::string why) -> std::optional<std::vector<StatusRange>> {
    if (error) *error = std::move(why);
    return std::nullopt;
  };
  if (trim(text).empty()) return fail("expected status codes or ranges such as 200-299,301");
  std::vector<StatusRange> out;
  while (true) {
    auto comma = text.find(',');
    auto item = trim(text.substr(0, comma));
    auto dash = item.find('-');
    auto low = status_code(item.substr(0, dash));
    auto high = dash == std::string_view::npos ? low : status_code(item.substr(dash + 1));
    if (!low || !high) return fail("'" + text::utf8_prefix(item, 40) + "' is not a status code 100..599 or a range");
    if (*high < *low) return fail("range " + std::to_string(*low) + "-" + std::to_string(*high) + " is reversed");
    if (out.size() == kMaxRanges) return fail("at most " + std::to_string(kMaxRanges) + " codes or ranges");
    out.push_back({*low, *high});
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  return out;
}

bool is_tcp_target(std::string_view target) {
  return target.size() > 6 && (target.substr(0, 6) == "tcp://" || target.substr(0, 6) == "TCP://");
}

net::CheckRequest request_for(const std::string& target, const CheckRules& rules, std::chrono::milliseconds timeout) {
  net::CheckRequest req;
  req.timeout = timeout;
  if (is_tcp_target(target)) {
    // libcurl connects to http://host:port without sending anything (CONNECT_ONLY), so a port
    // check runs on the same event loop and through the same egress gate as every other check.
    req.url = "http://" + target.substr(6);
    req.connect_only = true;
    return req;
  }
  req.url = target;
  req.head = rules.method == "HEAD";
  if (rules.keyword && !req.head) {
    req.keep_body = true;
    req.max_body = kKeywordBodyLimit;
  }
  return req;
}

Verdict judge(const std::string& target, const CheckRules& rules, const net::CheckOutcome& outcome) {
  // A redirect loop or an answer cut short is not a working site, whatever the last status.
  if (!outcome.error.empty()) return {false, outcome.error};
  if (!outcome.responded) return {false, "no answer"};
  if (is_tcp_target(target)) return {true, std::nullopt};
  int status = outcome.status;
  bool status_ok = status >= 200 && status < 400;
  if (rules.expected_status) {
    auto ranges = parse_status_ranges(*rules.expected_status);
    status_ok = ranges && in_ranges(status, *ranges);
    if (!status_ok)
      return {false, "HTTP status " + std::to_string(status) + " (expected " + *rules.expected_status + ")"};
  }
  if (!status_ok) return {false, "HTTP status " + std::to_string(status)};
  if (rules.keyword && rules.method != "HEAD") {
    bool found = outcome.body.find(*rules.keyword) != std::string::npos;
    if (found && rules.keyword_absent) return {false, "keyword found: " + *rules.keyword};
    if (!found && !rules.keyword_absent) return {false, "keyword not found: " + *rules.keyword};
  }
  return {true, std::nullopt};
}

}  // namespace dozor::monitor
