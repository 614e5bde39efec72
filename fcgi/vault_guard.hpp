#pragma once
// The gate of the vault's routes: the session cookie (a bearer token is never looked at), and
// for mutating routes the checks against cross-site requests — Origin equal to a configured
// origin (Referer when Origin is absent; neither → refused), Sec-Fetch-Site not cross-site,
// and the session's synchronizer token in X-CSRF-Token.
#include <map>
#include <string>

#include "fcgi/request.hpp"
#include "fcgi/response.hpp"
#include "fcgi/router.hpp"
#include "handlers/app.hpp"

namespace dozor::http {

// Whether a state-changing request comes from the vault's own origin. `configured`: the
// space-separated vault.origins, or empty for "https://" + the request's Host.
bool same_origin(const Request& req, const std::string& configured);
// Throws Forbidden unless same_origin and Sec-Fetch-Site is not cross-site.
void require_same_origin(const Request& req, const std::string& configured);

Response dispatch_vault(const Route& route, std::map<std::string, std::string> params, App& app, const Request& req);

}  // namespace dozor::http
