#pragma once
// Document editing through an ONLYOFFICE-compatible document server (docs/vault.md "Document
// editing"): the editor config signed with the shared secret, a short-lived signed download URL
// the document server fetches the file from, and the callback that saves the edited file.
//
// The callback acts only on claims signed with vault.docserver_jwt_secret (HS256 pinned, `exp`
// required); a body field that differs from its claim refuses the whole callback. The edited
// file is fetched only from vault.docserver_url's origin, without redirects, within
// limits::kVaultDocFetchBytes and kVaultDocFetchSeconds, through the egress policy (cloud
// metadata and link-local never reachable). A status-2 save closes the document's key in MySQL
// (vault_docedit_closed) before it writes, so a replay writes nothing, and the next session gets
// a new key.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <boost/json/object.hpp>

#include "db/vault_docedit_repo.hpp"
#include "engines/config/config.hpp"
#include "engines/net/egress_policy.hpp"
#include "engines/vault/vault.hpp"

namespace dozor::vault {

// The editor's documentType for a file name's extension: "word", "cell", "slide", "pdf"; "" when
// the document server does not edit it.
std::string document_type(std::string_view filename);
// 0-9 a-z A-Z - . _ = and at most limits::kVaultDocKeyBytes: the protocol's document.key.
bool valid_doc_key(std::string_view key);
// Whether `url` is an http(s) URL of exactly `origin` (scheme, host, port; default ports spelled or not).
bool same_origin(std::string_view url, std::string_view origin);

// The editor page's Content-Security-Policy: the site's own, with the document server's origin
// (vault.docserver_url, checked at load to be a bare origin) allowed to load api.js, be framed
// and be connected to. Written by dozor-fcgi at run time, so that turning editing on needs no
// new nginx site.
std::string editor_csp(const std::string& docserver_url);

struct EditorLaunch {
  std::string api_js;          // {docserver_url}/web-apps/apps/api/documents/api.js
  boost::json::object config;  // DocsAPI.DocEditor's config, "token" included
};

struct CallbackResult {
  int error = 0;       // the answer's {"error": N}: 0 accepted, 1 refused
  bool wrote = false;  // a new version of the file was saved
  std::string reason;  // why it was refused (for the log; never the secret)
};

class DocEdit {
 public:
  DocEdit(Vault& vault, const config::VaultConfig& cfg);

  bool enabled() const { return !cfg_.docserver_url.empty() && !cfg_.docserver_jwt_secret.empty(); }

  // The editor for `p` (the read right; edit mode with the write right). `vault_origin` is where
  // the document server reaches the vault ("https://host"). NotFound when editing is off or
  // the file's type is not an office document.
  EditorLaunch open(const Actor& a, const VaultPath& p, const std::string& vault_origin, std::int64_t now);

  // The file of a signed download URL (docedit_download?path=&exp=&sig=); Forbidden when the
  // signature is wrong or expired.
  FileRef signed_download(std::string_view path, std::string_view exp, std::string_view sig, std::int64_t now);

  // One callback: `body` is the raw JSON, `authorization` the header's value when present.
  CallbackResult callback(std::string_view body, std::optional<std::string_view> authorization, std::int64_t now);

 private:
  std::optional<std::string> download_sig(std::string_view path, std::int64_t exp) const;
  std::string key_for(const std::string& path, const db::vault_docedit::FileIdentity& file, std::int64_t writer_id);
  std::optional<std::string> fetch(const std::string& url, std::string& why);

  Vault& vault_;
  const config::VaultConfig& cfg_;
  net::EgressPolicy policy_{true};  // the configured document server is often on a private network
};

}  // namespace dozor::vault
