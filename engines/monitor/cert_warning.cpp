#include "engines/monitor/cert_warning.hpp"

namespace dozor::monitor {

bool should_warn_cert(std::optional<std::time_t> expires, std::optional<std::int64_t> last_warned, std::time_t now,
                      int warn_days) {
  constexpr std::int64_t kDay = 86400;
  if (!expires || *expires - now >= std::int64_t{warn_days} * kDay) return false;
  return !last_warned || now - *last_warned >= kDay;
}

}  // namespace dozor::monitor
