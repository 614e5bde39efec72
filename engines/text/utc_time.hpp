#pragma once
// UTC times as text: one place for gmtime_r + strftime, which the reports, status pages, audits
// and repositories all need ("%Y-%m-%d", "%Y-%m-%dT%H:%M:%SZ", SQL's "%Y-%m-%d %H:%M:%S" …).
#include <ctime>
#include <string>

namespace dozor::text {

// `t` (seconds since the epoch) in UTC with a strftime format; at most 63 characters of output.
std::string utc_format(std::time_t t, const char* format);

// Now, the same way.
std::string utc_now(const char* format);

inline constexpr const char* kUtcDay = "%Y-%m-%d";
inline constexpr const char* kUtcIso = "%Y-%m-%dT%H:%M:%SZ";

}  // namespace dozor::text
