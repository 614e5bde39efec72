#pragma once
// Task ids: 128 random bits in base64url (22 characters). The status route needs no token, so
// the id is the only secret between a task and a stranger: it must not be guessable.
#include <string>
#include <string_view>

namespace dozor::tasks {

std::string new_task_id();
// 22 characters of the base64url alphabet: anything else cannot name a task (404 without a query).
bool looks_like_task_id(std::string_view text);

}  // namespace dozor::tasks
