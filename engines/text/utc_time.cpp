#include "engines/text/utc_time.hpp"

namespace dozor::text {

std::string utc_format(std::time_t t, const char* format) {
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[64];
  return std::string(buf, std::strftime(buf, sizeof buf, format, &tm));
}

std::string utc_now(const char* format) { return utc_format(std::time(nullptr), format); }

}  // namespace dozor::text
