#include "engines/net/http_client.hpp"

#include <curl/curl.h>
#include <netdb.h>
#include <sys/socket.h>
#include <boost/url/parse.hpp>
#include <boost/url/url.hpp>
#include <cctype>
#include <iostream>

namespace dozor::net {
namespace {

using Clock = std::chrono::steady_clock;

struct Hop {
  const EgressPolicy* policy;
  std::string refusal;  // set by the socket callback
  FetchResult* out;
  std::size_t max_body;
  bool truncated = false;
};

curl_socket_t open_socket(void* data, curlsocktype purpose, curl_sockaddr* addr) {
  auto* hop = static_cast<Hop*>(data);
  if (purpose != CURLSOCKTYPE_IPCXN) return CURL_SOCKET_BAD;
  auto ip = IpAddress::from_sockaddr(&addr->addr);
  if (!ip) {
    hop->refusal = "egress policy refuses a non-IP socket";
    return CURL_SOCKET_BAD;
  }
  if (auto why = hop->policy->refusal(*ip)) {
    hop->refusal = *why;
    return CURL_SOCKET_BAD;
  }
  return socket(addr->family, addr->socktype | SOCK_CLOEXEC, addr->protocol);
}

std::size_t on_body(char* data, std::size_t size, std::size_t n, void* user) {
  auto* hop = static_cast<Hop*>(user);
  std::size_t len = size * n;
  std::size_t room = hop->max_body - std::min(hop->max_body, hop->out->body.size());
  if (len > room) {
    hop->out->body.append(data, room);
    hop->truncated = true;
    return 0;  // stop the transfer: we have what we keep
  }
  hop->out->body.append(data, len);
  return len;
}

std::size_t on_header(char* data, std::size_t size, std::size_t n, void* user) {
  auto* hop = static_cast<Hop*>(user);
  std::string line(data, size * n);
  if (line.rfind("HTTP/", 0) == 0) {
    hop->out->headers.clear();  // a new response (1xx interim or this hop's final)
    return size * n;
  }
  auto colon = line.find(':');
  if (colon == std::string::npos) return size * n;
  std::string name = line.substr(0, colon);
  for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::string value = line.substr(colon + 1);
  auto b = value.find_first_not_of(" \t");
  auto e = value.find_last_not_of(" \t\r\n");
  value = b == std::string::npos ? "" : value.substr(b, e - b + 1);
  hop->out->headers.emplace(name, value);
  return size * n;
}

// Resolves host with the system resolver; IP literals come back as themselves.
std::vector<IpAddress> resolve(const std::string& host, std::string& error) {
  if (auto literal = IpAddress::parse(host)) return {*literal};
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* res = nullptr;
  int rc = getaddrinfo(host.c_str(), nullptr, &hints, &res);
  if (rc != 0) {
    error = "DNS lookup failed for " + host + ": " + gai_strerror(rc);
    return {};
  }
  std::vector<IpAddress> out;
  for (auto* p = res; p; p = p->ai_next)
    if (auto ip = IpAddress::from_sockaddr(p->ai_addr)) out.push_back(*ip);
  freeaddrinfo(res);
  return out;
}

// The user sees that the policy refused; the address (which maps internal names) goes to the log.
void refuse(FetchResult& out, const std::string& host, const std::string& why) {
  std::cerr << "egress: refused " << host << ": " << why << "\n";
  out.error = "destination refused by the egress policy";
  out.refused_by_policy = true;
}

bool is_redirect(int status) {
  return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
}

}  // namespace

void global_init() { curl_global_init(CURL_GLOBAL_DEFAULT); }

FetchResult fetch(const std::string& start_url, const EgressPolicy& policy, const FetchOptions& options) {
  FetchResult out;
  auto started = Clock::now();
  std::string url = start_url;
  auto finish = [&]() -> FetchResult& {
    out.elapsed_ms = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started).count();
    return out;
  };

  for (int hop_no = 0;; ++hop_no) {
    out.final_url = url;
    out.responded = false;  // a hop that fails leaves no answer, even after a redirect
    out.status = 0;
    auto parsed = boost::urls::parse_uri(url);
    bool http = parsed &&
                (parsed->scheme_id() == boost::urls::scheme::http || parsed->scheme_id() == boost::urls::scheme::https);
    if (!http || parsed->host().empty()) {
      out.error = "not an http(s) URL: " + url;
      return finish();
    }
    std::string host = parsed->host_address();
    if (parsed->host_type() == boost::urls::host_type::ipv6) host = std::string(parsed->encoded_host_address());
    std::uint16_t port =
        parsed->has_port() ? parsed->port_number() : (parsed->scheme_id() == boost::urls::scheme::https ? 443 : 80);

    std::string dns_error;
    auto addresses = resolve(host, dns_error);
    if (addresses.empty()) {
      out.error = dns_error.empty() ? "no address for " + host : dns_error;
      return finish();
    }
    if (auto why = policy.refusal(addresses)) {
      refuse(out, host, *why);
      return finish();
    }

    auto remaining = options.timeout - std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started);
    if (remaining.count() <= 0) {
      out.error = "timed out";
      return finish();
    }

    CURL* curl = curl_easy_init();
    if (!curl) {
      out.error = "cannot initialise libcurl";
      return finish();
    }
    // Pin the addresses we judged, so libcurl cannot resolve the name to something else.
    std::string pinned = host + ":" + std::to_string(port) + ":";
    for (std::size_t i = 0; i < addresses.size(); ++i) {
      if (i) pinned += ",";
      pinned += addresses[i].v6 ? "[" + addresses[i].to_string() + "]" : addresses[i].to_string();
    }
    curl_slist* resolve_list = curl_slist_append(nullptr, pinned.c_str());

    Hop hop{&policy, {}, &out, options.max_body};
    out.body.clear();
    out.headers.clear();
    curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
    curl_easy_setopt(curl, CURLOPT_RESOLVE, resolve_list);
    curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(curl, CURLOPT_PROXY, "");  // environment proxies would bypass the policy
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, static_cast<long>(remaining.count()));
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(remaining.count()));
    curl_easy_setopt(curl, CURLOPT_USERAGENT, options.user_agent.c_str());
    curl_easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, options.verify_tls ? 1L : 0L);
    curl_easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, options.verify_tls ? 2L : 0L);
    curl_easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, "");
    curl_easy_setopt(curl, CURLOPT_OPENSOCKETFUNCTION, open_socket);
    curl_easy_setopt(curl, CURLOPT_OPENSOCKETDATA, &hop);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &hop);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, &hop);

    CURLcode rc = curl_easy_perform(curl);
    long status = 0;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
    curl_easy_cleanup(curl);
    curl_slist_free_all(resolve_list);

    if (!hop.refusal.empty()) {
      refuse(out, host, hop.refusal);
      return finish();
    }
    if (rc != CURLE_OK && !(rc == CURLE_WRITE_ERROR && hop.truncated)) {
      out.responded = false;
      out.status = 0;
      out.error = curl_easy_strerror(rc);
      if (rc == CURLE_OPERATION_TIMEDOUT)
        out.error = "timed out after " + std::to_string(options.timeout.count()) + " ms";
      return finish();
    }
    out.responded = true;
    out.status = static_cast<int>(status);

    auto location = out.headers.find("location");
    if (!is_redirect(out.status) || location == out.headers.end()) return finish();
    if (hop_no >= options.max_redirects) {
      out.error = "stopped after " + std::to_string(options.max_redirects) + " redirects";
      return finish();
    }
    auto ref = boost::urls::parse_uri_reference(location->second);
    if (!ref) {
      out.error = "invalid redirect location: " + location->second;
      return finish();
    }
    boost::urls::url next;
    if (!boost::urls::resolve(*parsed, *ref, next)) {
      out.error = "cannot resolve redirect location: " + location->second;
      return finish();
    }
    next.remove_fragment();
    url = std::string(next.buffer());
    out.redirects.push_back(url);
  }
}

}  // namespace dozor::net
