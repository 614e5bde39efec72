#pragma once
// When a service's certificate is told to be expiring: within `warn_days` of its notAfter, at
// most once per day (a day after the last warning), whatever the check interval.
#include <cstdint>
#include <ctime>
#include <optional>

namespace dozor::monitor {

bool should_warn_cert(std::optional<std::time_t> expires, std::optional<std::int64_t> last_warned, std::time_t now,
                      int warn_days);

}  // namespace dozor::monitor
