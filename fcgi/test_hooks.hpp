#pragma once
// Failure injection for the integration tests of the supervisor (tests/integration/
// test_supervisor.py). Compiled in only with -DDOZOR_TEST_HOOKS=ON (scripts/test does so);
// in any other build every hook answers "no" and no environment variable is read.
//
//   DOZOR_TEST_FORK_FAILURES=N        the master's first N forks fail with EAGAIN
//   DOZOR_TEST_WORKER_IGNORES_SIGTERM=1  workers log SIGTERM and go on serving
namespace dozor::fcgi::test_hooks {

bool enabled();
// True (and counts one down) while injected fork failures remain.
bool take_fork_failure();
bool worker_ignores_sigterm();

}  // namespace dozor::fcgi::test_hooks
