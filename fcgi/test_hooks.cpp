#include "fcgi/test_hooks.hpp"

#include <cstdlib>
#include <string>

namespace dozor::fcgi::test_hooks {

#ifdef DOZOR_TEST_HOOKS

namespace {

long env_number(const char* name) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return 0;
  try {
    return std::stol(v);
  } catch (...) {
    return 0;
  }
}

}  // namespace

bool enabled() { return true; }

bool take_fork_failure() {
  // Read once, in the single-threaded master.
  static long remaining = env_number("DOZOR_TEST_FORK_FAILURES");
  if (remaining <= 0) return false;
  --remaining;
  return true;
}

bool worker_ignores_sigterm() { return env_number("DOZOR_TEST_WORKER_IGNORES_SIGTERM") != 0; }

#else

bool enabled() { return false; }
bool take_fork_failure() { return false; }
bool worker_ignores_sigterm() { return false; }

#endif

}  // namespace dozor::fcgi::test_hooks
