#pragma once
// Encoded answers kept per worker process and served again while their version is current.
// The version comes from the database with the request (e.g. users.services_rev, read while
// authenticating), so a cached answer is never staler than what another host would serve.
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "fcgi/response.hpp"

namespace dozor::handlers {

class ResponseCache {
 public:
  explicit ResponseCache(std::size_t max_entries = 10000) : max_entries_(max_entries) {}

  // The cached answer for (key, version), or make() — stored when it is a 200.
  http::Response get_or_make(const std::string& key, std::int64_t version, const std::function<http::Response()>& make);

 private:
  struct Entry {
    std::int64_t version;
    std::shared_ptr<const http::Response> response;
  };
  std::size_t max_entries_;
  std::mutex mutex_;
  std::unordered_map<std::string, Entry> entries_;
};

}  // namespace dozor::handlers
