#pragma once
// The cheap probes of technology detection (docs/audit.md "Technologies"): robots.txt,
// /favicon.ico (its SHA-256) and the few readme/license/asset paths the fingerprints name, each
// one GET (at most limits::tech::kProbeRedirects redirects), a 2xx answer read up to limits::tech::kProbeBodyBytes
// and matched against a body pattern (so a catch-all 200 page proves nothing).
#include <chrono>
#include <string>

#include "engines/audit/tech/detector.hpp"
#include "engines/net/scan_client.hpp"

namespace dozor::audit::tech {

// Queues the probes of `fp` against the origin of `page_url` on `session`; the answers go to
// `detector` from session.run(). Returns how many were queued. Without `unlinked`, only what a
// browser or a crawler asks anyway (/robots.txt, /favicon.ico): the fingerprints' other paths
// (readme files, a CMS's manifests) are probing, active work (docs/audit.md).
std::size_t queue_probes(const std::string& page_url, const Fingerprints& fp, net::ScanSession& session,
                         Detector& detector, bool verify_tls, bool unlinked);

// The paths of queue_probes that are not /robots.txt or /favicon.ico.
std::vector<std::string> unlinked_probe_paths(const Fingerprints& fp);

// "https://host:port" + path.
std::string origin_path(const std::string& url, const std::string& path);

}  // namespace dozor::audit::tech
