#pragma once
// What counts as a secret in data Dozor echoes or shows: one rule for masking channel
// parameters, redacting validation echoes and scrubbing logs.
#include <string>
#include <string_view>

#include <boost/json/value.hpp>

namespace dozor::secrets {

// True for field names that hold credentials: password, passwd, pass, token, secret, key,
// api_key, apikey, authorization, auth, cookie, credential(s), private_key, session, … in any
// case and with -, _ or . separators ("bot_token", "X-Api-Key", "smtp.password").
bool is_secret_name(std::string_view name);

// A masked form that shows at most the last 2 characters: "****34"; short values become "****".
std::string mask(std::string_view value);

// True for a value that mask() produced (a write that sends it back keeps the stored secret).
bool is_masked(std::string_view value);

// `v` with every member named like a secret masked, at any depth (objects inside arrays too);
// a secret that is not a string (a number, an object) becomes "****" as a whole.
boost::json::value mask_json(const boost::json::value& v);

}  // namespace dozor::secrets
