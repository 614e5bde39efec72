#include "engines/analyzer/remote.hpp"

#include <curl/curl.h>

#include <unistd.h>

#include <algorithm>
#include <boost/json/parse.hpp>
#include <ctime>
#include <functional>
#include <memory>

#include "engines/auth/jwt.hpp"

namespace dozor::analyzer::remote {
namespace {

// The analyzer's answers are a few KiB (findings are capped); anything longer is not one.
constexpr std::size_t kMaxAnswerBytes = 4 << 20;

struct CurlDeleter {
  void operator()(CURL* c) const { curl_easy_cleanup(c); }
};
struct SlistDeleter {
  void operator()(curl_slist* l) const { curl_slist_free_all(l); }
};

std::size_t collect(char* data, std::size_t size, std::size_t n, void* user) {
  auto* out = static_cast<std::string*>(user);
  if (out->size() + size * n > kMaxAnswerBytes) return 0;  // curl then fails the transfer
  out->append(data, size * n);
  return size * n;
}

Answer perform(CURL* c, std::chrono::milliseconds timeout) {
  Answer a;
  std::string body;
  curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http");
  curl_easy_setopt(c, CURLOPT_PROXY, "");  // never an environment proxy
  curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, static_cast<long>(timeout.count()));
  curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, collect);
  curl_easy_setopt(c, CURLOPT_WRITEDATA, &body);
  CURLcode rc = curl_easy_perform(c);
  if (rc != CURLE_OK) {
    a.error = curl_easy_strerror(rc);
    return a;
  }
  long status = 0;
  curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
  a.answered = true;
  a.status = static_cast<int>(status);
  boost::system::error_code ec;
  auto v = boost::json::parse(body, ec);
  if (!ec) a.body = std::move(v);
  return a;
}

}  // namespace

std::string base_url(const std::string& listen) {
  std::string addr = listen.substr(0, listen.find_first_of(" \t"));
  if (addr.empty()) return {};
  std::string host = "127.0.0.1";
  std::string port = addr;
  if (addr.front() == '[') {
    auto close = addr.find(']');
    if (close == std::string::npos) return {};
    host = addr.substr(0, close + 1);
    port = close + 1 < addr.size() && addr[close + 1] == ':' ? addr.substr(close + 2) : "80";
    if (host == "[::]") host = "[::1]";
  } else if (auto colon = addr.rfind(':'); colon != std::string::npos) {
    host = addr.substr(0, colon);
    port = addr.substr(colon + 1);
    if (host == "*" || host == "0.0.0.0") host = "127.0.0.1";
  } else if (addr.find_first_not_of("0123456789") != std::string::npos) {
    host = addr;  // a host name without a port
    port = "80";
  }
  return "http://" + host + ":" + port;
}

Answer get(const std::string& url, std::chrono::milliseconds timeout) {
  std::unique_ptr<CURL, CurlDeleter> c(curl_easy_init());
  if (!c) return Answer{false, 0, "curl_easy_init failed", nullptr};
  curl_easy_setopt(c.get(), CURLOPT_URL, url.c_str());
  return perform(c.get(), timeout);
}

namespace {

// A file's bytes read from its descriptor as curl sends them (never whole in memory).
struct FileBody {
  int fd;
  std::int64_t size;
  std::int64_t sent = 0;
};

std::size_t read_file_body(char* buf, std::size_t size, std::size_t n, void* user) {
  auto* f = static_cast<FileBody*>(user);
  auto want = static_cast<std::size_t>(std::min<std::int64_t>(static_cast<std::int64_t>(size * n), f->size - f->sent));
  if (want == 0) return 0;
  ssize_t got = ::pread(f->fd, buf, want, f->sent);
  if (got <= 0) return CURL_READFUNC_ABORT;  // the file shrank or failed: no partial verdict
  f->sent += got;
  return static_cast<std::size_t>(got);
}

Answer post(const std::string& url, const std::string& token, const std::string& content_type,
            std::chrono::milliseconds timeout, const std::function<void(CURL*)>& set_body) {
  std::unique_ptr<CURL, CurlDeleter> c(curl_easy_init());
  if (!c) return Answer{false, 0, "curl_easy_init failed", nullptr};
  std::unique_ptr<curl_slist, SlistDeleter> headers;
  auto add = [&](const std::string& h) {
    curl_slist* next = curl_slist_append(headers.get(), h.c_str());
    if (next) {
      (void)headers.release();
      headers.reset(next);
    }
  };
  add("Authorization: Bearer " + token);
  add("Content-Type: " + (content_type.empty() ? std::string("application/octet-stream") : content_type));
  add("Expect:");  // no 100-continue round trip
  curl_easy_setopt(c.get(), CURLOPT_URL, url.c_str());
  curl_easy_setopt(c.get(), CURLOPT_HTTPHEADER, headers.get());
  set_body(c.get());
  return perform(c.get(), timeout);
}

}  // namespace

Answer analyze(const std::string& base, std::string_view document, const std::string& content_type,
               const std::string& token, std::chrono::milliseconds timeout) {
  return post(base + "/api/v1/analyze", token, content_type, timeout, [&](CURL* c) {
    curl_easy_setopt(c, CURLOPT_POSTFIELDS, document.data());
    curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(document.size()));
  });
}

Answer malware_scan(const std::string& base, int fd, std::int64_t size, const std::string& token,
                    std::chrono::milliseconds timeout) {
  FileBody body{fd, size};
  return post(base + "/api/v1/malware_scan", token, "application/octet-stream", timeout, [&](CURL* c) {
    curl_easy_setopt(c, CURLOPT_POST, 1L);
    curl_easy_setopt(c, CURLOPT_READFUNCTION, read_file_body);
    curl_easy_setopt(c, CURLOPT_READDATA, &body);
    curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(size));
  });
}

std::string token_for(std::string_view jwt_key, std::int64_t user_id, std::chrono::seconds lifetime) {
  auth::Claims claims;
  claims.sub = user_id;
  claims.name = "dozor-audit";
  claims.adm = false;
  claims.ver = auth::kInstallationTokenVersion;
  claims.iat = static_cast<std::int64_t>(std::time(nullptr));
  claims.exp = claims.iat + lifetime.count();
  return auth::sign_jwt(claims, jwt_key);
}

}  // namespace dozor::analyzer::remote
