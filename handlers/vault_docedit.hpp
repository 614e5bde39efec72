#pragma once
// The vault's editors (docs/vault.md "Document editing"): the text editor page, the document
// server's editor page, its signed download and its callback.
#include "fcgi/response.hpp"
#include "handlers/context.hpp"

namespace dozor::handlers {

http::Response vault_edit(VaultContext& ctx);
http::Response vault_docedit_edit(VaultContext& ctx);
http::Response vault_docedit_download(Context& ctx);
http::Response vault_docedit_callback(Context& ctx);

}  // namespace dozor::handlers
