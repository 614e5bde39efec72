#pragma once
// Out-of-band application security testing (docs/scan.md "XXE and SSRF"): the scanner registers a
// probe (a random token tied to the request and parameter it is sent in) before sending it; a
// target that fetches the probe's URL (/oast/{token}) leaves a hit, which names exactly that probe.
// This file holds the pure parts: tokens, probe URLs, what a hit keeps of the interaction.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dozor::oast {

struct Probe {
  std::string token;   // 22 base64url characters, 128 random bits
  std::string marker;  // what /oast/{token} answers with: never part of the probe's request
  std::string kind;    // xxe | ssrf
  std::string url;     // the probe's request
  std::string method;
  std::string param;    // the parameter, or "" for an XML body
  std::string payload;  // what was sent
};

struct Hit {
  std::string token;
  std::string received_at;  // ISO 8601 UTC
  std::string source;       // the address that connected
  std::string method;
  std::string path;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body_excerpt;
};

// A new probe of `kind` with a fresh token and marker.
Probe new_probe(std::string kind);

// 22 characters of the base64url alphabet.
bool looks_like_token(std::string_view text);

// The URL a target is asked to fetch: base (trailing slashes dropped) + "/oast/" + token.
std::string probe_url(std::string_view base_url, std::string_view token);

// The token of a request path "/oast/{token}[/anything][?query]", or nullopt.
std::optional<std::string> token_of_path(std::string_view raw_path);

// What is stored of untrusted text: printable ASCII kept, every other byte as \xNN, at most
// `max_chars` characters (an escape is never cut).
std::string printable(std::string_view text, std::size_t max_chars);

// Whether a hit keeps a header (its name in lower case): never Cookie, Cookie2, Authorization,
// Proxy-Authorization or Dozor's own (X-Dozor-*, Dozor-*, DOZOR_*).
bool kept_header(std::string_view lower_name);

// A hit's record of an interaction, bounded by limits::oast (header count and length, body, path);
// headers kept_header() refuses are left out.
Hit capture(std::string token, std::string_view source, std::string_view method, std::string_view raw_target,
            const std::vector<std::pair<std::string, std::string>>& headers, std::string_view body);

}  // namespace dozor::oast
