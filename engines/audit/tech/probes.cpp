#include "engines/audit/tech/probes.hpp"

#include <boost/url/parse.hpp>
#include <boost/url/url.hpp>

#include "engines/limits.hpp"

namespace dozor::audit::tech {

std::string origin_path(const std::string& url, const std::string& path) {
  auto parsed = boost::urls::parse_uri(url);
  if (!parsed) return {};
  boost::urls::url u(*parsed);
  u.set_encoded_path(path);
  u.remove_query();
  u.remove_fragment();
  u.remove_userinfo();
  return std::string(u.buffer());
}

namespace {

bool asked_anyway(const std::string& path) { return path == "/robots.txt" || path == "/favicon.ico"; }

}  // namespace

std::vector<std::string> unlinked_probe_paths(const Fingerprints& fp) {
  std::vector<std::string> out;
  for (const auto& path : fp.probe_paths())
    if (!asked_anyway(path)) out.push_back(path);
  return out;
}

std::size_t queue_probes(const std::string& page_url, const Fingerprints& fp, net::ScanSession& session,
                         Detector& detector, bool verify_tls, bool unlinked) {
  std::size_t queued = 0;
  for (const auto& path : fp.probe_paths()) {
    if (!unlinked && !asked_anyway(path)) continue;
    auto url = origin_path(page_url, path);
    if (url.empty()) continue;
    net::FetchRequest req;
    req.url = url;
    req.headers = {"Accept: */*"};
    req.max_redirects = limits::tech::kProbeRedirects;  // http → https, or a trailing slash
    req.verify_tls = verify_tls;
    req.oversize_is_error = false;
    session.submit(std::move(req), [&detector, url, path](const net::CheckOutcome& o) {
      if (!o.responded || o.kind != net::CheckError::None) return;
      std::string_view body(o.body);
      if (body.size() > limits::tech::kProbeBodyBytes) body = body.substr(0, limits::tech::kProbeBodyBytes);
      detector.probe(url, path, o.status, body);
    });
    ++queued;
  }
  return queued;
}

}  // namespace dozor::audit::tech
