#include "engines/net/exchange_json.hpp"

#include <boost/json/array.hpp>

namespace dozor::net {

boost::json::object to_json(const Exchange& ex) {
  auto fields = [](const std::vector<HeaderField>& list) {
    boost::json::array a;
    for (const auto& f : list)
      a.push_back(boost::json::array{boost::json::string(f.name), boost::json::string(f.value)});
    return a;
  };
  return {{"url", ex.url},
          {"request_line", ex.request_line},
          {"request_headers", fields(ex.request_headers)},
          {"status", ex.status},
          {"status_line", ex.status_line},
          {"response_headers", fields(ex.response_headers)},
          {"body_excerpt", ex.body_excerpt}};
}

}  // namespace dozor::net
