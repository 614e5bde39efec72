#pragma once
// Login throttling as pure decisions (no I/O): which counters an attempt is counted in, how long
// a counter makes an attempt wait, and how counting and refunds change them. The rows live in
// MariaDB (db/login_throttle_repo); engines/auth/auth_service.cpp locks them, asks here, stores.
//
// Counters (docs/login.md):
//   client   "c|<client>"             every failure from one IPv4 address or IPv6 /64
//   pair     "p|<user id>|<client>"   failures against one existing account from one client
//   account  "a|<user id>"            failures against one account from clients without its
//                                     device cookie (a distributed guessing backstop)
//   device   "d|<user id>|<device>"   failures by the holder of a valid device cookie, who is
//                                     counted here only: strangers' floods never reach it
// Unknown names add no row: they are counted in the client row, and per name in one of 64
// slots of it, so they are throttled like a pair without one row per guessed name.
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dozor::auth::throttle {

struct Policy {
  std::int64_t limit = 5;                                 // failures allowed before waiting starts
  std::int64_t window_ms = std::int64_t{15} * 60 * 1000;  // quiet time after which failures are forgotten
  std::int64_t block_ms = std::int64_t{60} * 1000;        // the first wait, doubled per further failure
  std::int64_t max_block_ms = std::int64_t{15} * 60 * 1000;
};

struct Policies {
  Policy client, pair, account, device;
};

constexpr int kSlots = 64;

struct Row {
  std::int64_t failures = 0;
  std::int64_t last_ms = 0;  // database clock, ms since the epoch
  std::string slots;         // client rows: kSlots one-byte counters (empty = all zero)
};

enum class Role { Client, Pair, Account, Device };

struct Bucket {
  std::string key;
  Role role;
};

struct Attempt {
  std::string client;                   // client_key() of the remote address
  std::optional<std::int64_t> account;  // the existing account the name is, if any
  std::optional<std::string> device;    // device id of a device cookie valid for that account
  int slot = 0;                         // unknown names: their slot in the client row
};

// The throttle key of a remote address: an IPv4 address as is (also when IPv4-mapped), an IPv6
// address as its /64 ("2001:db8:0:1::/64"), anything unparsable as "other".
std::string client_key(std::string_view remote_addr);

// The counters an attempt is checked and counted in, sorted by key (the lock order).
std::vector<Bucket> buckets_for(const Attempt& a);

const Policy& policy_of(Role role, const Policies& p);

// Failures still remembered at `now`.
std::int64_t live_failures(const Row& r, const Policy& p, std::int64_t now);
// How long (ms) the counter makes the next attempt wait; 0 = it may be made now.
std::int64_t wait_ms(const Row& r, const Policy& p, std::int64_t now);
// The counters that make the attempt wait, each with its wait (ms); an unknown name's slot
// appears as slot_key(a).
std::map<std::string, std::int64_t> waits_for(const Attempt& a, const std::map<std::string, Row>& rows,
                                              const Policies& p, std::int64_t now);
std::string slot_key(const Attempt& a);
// The longest wait over the attempt's counters (absent rows count as empty).
std::int64_t wait_for(const Attempt& a, const std::map<std::string, Row>& rows, const Policies& p, std::int64_t now);
// Counts the attempt in each of its counters (and the name's slot for unknown names).
void count(const Attempt& a, std::map<std::string, Row>& rows, const Policies& p, std::int64_t now);
// Takes one counted attempt back everywhere (it was never checked).
void refund(const Attempt& a, std::map<std::string, Row>& rows);
// A success: its pair (or device) counter is cleared, and the failures it held — this attempt
// and the typos before it — are taken back from the client and account counters. Only those:
// logging into one's own account never launders failures against other accounts.
void succeed(const Attempt& a, std::map<std::string, Row>& rows);
// When a row may be deleted: its failures are forgotten and any wait is over.
std::int64_t expiry_ms(const Row& r, const Policy& p);

int slot_count(const Row& r, int slot);

}  // namespace dozor::auth::throttle
