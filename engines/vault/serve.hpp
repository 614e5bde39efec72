#pragma once
// How a vault file is handed to the client: nginx sends the bytes (X-Accel-Redirect to an
// internal location), dozor-fcgi decides the headers: the type by content (libmagic, never the
// name), inline only for types that cannot run script in the vault's origin, and an RFC 6266
// Content-Disposition for every name.
#include <string>
#include <string_view>

#include "engines/vault/path.hpp"

namespace dozor::vault {

// The internal nginx location that serves vault.root/files/ (nginx/dozor.conf.in).
inline constexpr std::string_view kAccelPrefix = "/_vault_files/";

// kAccelPrefix + the path, every byte but unreserved characters and '/' percent-encoded
// (nginx decodes it once; '?', '%', '#' and non-ASCII stay part of the name).
std::string accel_uri(const VaultPath& p);

// `attachment; filename="ascii fallback"; filename*=UTF-8''percent-encoded` (or inline).
std::string content_disposition(bool as_inline, std::string_view filename);

// The MIME type libmagic sees in the file's first bytes ("application/octet-stream" when it
// cannot tell). Reads with pread: the descriptor's offset is left alone.
std::string sniff_mime(int fd);

struct ViewDecision {
  std::string content_type;  // what the answer says
  bool as_inline = false;
};

// Inline: images but SVG, PDF, audio, video, and text shown as text/plain. Everything else —
// HTML, SVG, XML, scripts, unknown — is an attachment of type application/octet-stream.
ViewDecision view_policy(std::string_view sniffed);

}  // namespace dozor::vault
