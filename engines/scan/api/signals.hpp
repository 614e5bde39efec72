#pragma once
// What the API check reads in an answer (docs/scan.md "API check"): stack traces of the common
// server platforms, fields that hold secrets or personal data, the answer to a GraphQL
// introspection query, rate-limit headers. Pure functions of the text, bounded, never throw.
#include <boost/json/value.hpp>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engines/net/multi_fetch.hpp"

namespace dozor::api {

struct TraceMatch {
  std::string platform;  // python | java | php | dotnet | node
  std::size_t offset = 0;
  std::size_t length = 0;
};

// The first stack trace (or framework error page with source locations) in `body`.
std::optional<TraceMatch> find_stack_trace(std::string_view body);

struct SensitiveField {
  std::string path;           // "user.password_hash", "items[0].card"
  std::string kind;           // password | password hash | secret | token | card number | SNILS | INN
  std::string value_excerpt;  // the value, masked past its first characters
};

// Fields of a JSON answer that hold secrets or personal identifiers: by name (password, secret,
// api_key, token …; token names only when `tokens_expected` is false) with a non-empty value, by
// value (password hashes of crypt formats, payment card numbers passing Luhn), and SNILS/INN
// under their names with valid check digits. At most limits::api::kSensitiveHits.
std::vector<SensitiveField> sensitive_json_fields(const boost::json::value& answer, bool tokens_expected);

// The same for an answer's text: nothing unless it parses as JSON.
std::vector<SensitiveField> sensitive_fields(std::string_view body, bool tokens_expected);

// Check digits (digits only, separators removed by the caller).
bool luhn_valid(std::string_view digits);
bool snils_valid(std::string_view digits);  // 11 digits
bool inn_valid(std::string_view digits);    // 10 (organisation) or 12 (person) digits

// The query type's name when `body` is a GraphQL answer to {__schema{queryType{name}}} that
// carries data (introspection enabled); nullopt for errors, other JSON or anything else.
std::optional<std::string> introspection_query_type(std::string_view body);

// True when the body looks like a GraphQL server's answer at all ({"data":…} or {"errors":[…]}).
bool graphql_answer(std::string_view body);

// RateLimit-* (IETF draft), X-RateLimit-*, X-Rate-Limit-* or Retry-After among the headers.
bool has_rate_limit_headers(const std::vector<net::HeaderField>& headers);

// A path whose resources are people's or their business (users, accounts, orders …): what
// enumerable ids must not reach without credentials.
bool personal_resource(std::string_view path);

// A path whose purpose is to hand out credentials (login, token, session …): tokens in its
// answers are expected.
bool auth_operation(std::string_view path);

}  // namespace dozor::api
