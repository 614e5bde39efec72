#include "engines/auth/throttle.hpp"

#include <arpa/inet.h>
#include <algorithm>
#include <cstdio>
#include <cstring>

namespace dozor::auth::throttle {
namespace {

std::int64_t block_length(const Policy& p, std::int64_t failures) {
  auto doublings = std::clamp<std::int64_t>(failures - p.limit, 0, 30);
  return std::min(p.max_block_ms, p.block_ms << doublings);
}

Row with_slots(Row r) {
  if (r.slots.size() != kSlots) r.slots.assign(kSlots, '\0');
  return r;
}

}  // namespace

std::string client_key(std::string_view remote_addr) {
  std::string text(remote_addr);
  in_addr v4{};
  if (inet_pton(AF_INET, text.c_str(), &v4) == 1) {
    char out[INET_ADDRSTRLEN];
    return inet_ntop(AF_INET, &v4, out, sizeof out) ? std::string(out) : "other";
  }
  in6_addr v6{};
  if (inet_pton(AF_INET6, text.c_str(), &v6) != 1) return "other";
  static const unsigned char kMapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
  if (std::equal(kMapped, kMapped + 12, v6.s6_addr)) {
    std::memcpy(&v4, v6.s6_addr + 12, 4);
    char out[INET_ADDRSTRLEN];
    return inet_ntop(AF_INET, &v4, out, sizeof out) ? std::string(out) : "other";
  }
  // One subscriber usually gets a whole /64: its addresses are one client.
  std::fill(v6.s6_addr + 8, v6.s6_addr + 16, 0);
  char out[INET6_ADDRSTRLEN];
  if (!inet_ntop(AF_INET6, &v6, out, sizeof out)) return "other";
  return std::string(out) + "/64";
}

std::vector<Bucket> buckets_for(const Attempt& a) {
  std::vector<Bucket> out;
  if (a.account && a.device) {
    out.push_back({"d|" + std::to_string(*a.account) + "|" + *a.device, Role::Device});
  } else {
    out.push_back({"c|" + a.client, Role::Client});
    if (a.account) {
      out.push_back({"p|" + std::to_string(*a.account) + "|" + a.client, Role::Pair});
      out.push_back({"a|" + std::to_string(*a.account), Role::Account});
    }
  }
  std::sort(out.begin(), out.end(), [](const Bucket& x, const Bucket& y) { return x.key < y.key; });
  return out;
}

const Policy& policy_of(Role role, const Policies& p) {
  switch (role) {
    case Role::Client: return p.client;
    case Role::Pair: return p.pair;
    case Role::Account: return p.account;
    case Role::Device: return p.device;
  }
  return p.client;
}

std::int64_t live_failures(const Row& r, const Policy& p, std::int64_t now) {
  if (r.failures <= 0) return 0;
  // Forgotten after a quiet window that follows any wait: a client that retries as soon as
  // each wait ends stays at the longest wait instead of starting over.
  auto forget_at = r.last_ms + p.window_ms + (r.failures >= p.limit ? block_length(p, r.failures) : 0);
  return now >= forget_at ? 0 : r.failures;
}

std::int64_t wait_ms(const Row& r, const Policy& p, std::int64_t now) {
  auto f = live_failures(r, p, now);
  if (f < p.limit) return 0;
  return std::max<std::int64_t>(0, r.last_ms + block_length(p, f) - now);
}

int slot_count(const Row& r, int slot) {
  if (r.slots.size() != kSlots || slot < 0 || slot >= kSlots) return 0;
  return static_cast<unsigned char>(r.slots[static_cast<std::size_t>(slot)]);
}

std::string slot_key(const Attempt& a) { return "c|" + a.client + "#" + std::to_string(a.slot); }

std::map<std::string, std::int64_t> waits_for(const Attempt& a, const std::map<std::string, Row>& rows,
                                              const Policies& p, std::int64_t now) {
  std::map<std::string, std::int64_t> out;
  for (const auto& b : buckets_for(a)) {
    auto it = rows.find(b.key);
    if (it == rows.end()) continue;
    const auto& policy = policy_of(b.role, p);
    if (auto w = wait_ms(it->second, policy, now); w > 0) out[b.key] = w;
    if (b.role == Role::Client && !a.account && live_failures(it->second, policy, now) > 0) {
      // An unknown name waits as an account would, on its slot's count.
      Row slot{slot_count(it->second, a.slot), it->second.last_ms, {}};
      if (auto w = wait_ms(slot, p.pair, now); w > 0) out[slot_key(a)] = w;
    }
  }
  return out;
}

std::int64_t wait_for(const Attempt& a, const std::map<std::string, Row>& rows, const Policies& p, std::int64_t now) {
  std::int64_t wait = 0;
  for (const auto& [key, w] : waits_for(a, rows, p, now)) wait = std::max(wait, w);
  return wait;
}

void count(const Attempt& a, std::map<std::string, Row>& rows, const Policies& p, std::int64_t now) {
  for (const auto& b : buckets_for(a)) {
    Row& r = rows[b.key];
    const auto& policy = policy_of(b.role, p);
    bool live = live_failures(r, policy, now) > 0;
    r.failures = live ? r.failures + 1 : 1;
    if (b.role == Role::Client) {
      if (!live) r.slots.assign(kSlots, '\0');
      if (!a.account) {
        r = with_slots(std::move(r));
        auto& s = r.slots[static_cast<std::size_t>(a.slot % kSlots)];
        if (static_cast<unsigned char>(s) < 255) s = static_cast<char>(static_cast<unsigned char>(s) + 1);
      }
    }
    r.last_ms = now;
  }
}

void refund(const Attempt& a, std::map<std::string, Row>& rows) {
  for (const auto& b : buckets_for(a)) {
    auto it = rows.find(b.key);
    if (it == rows.end()) continue;
    Row& r = it->second;
    r.failures = std::max<std::int64_t>(0, r.failures - 1);
    if (b.role == Role::Client && !a.account && r.slots.size() == kSlots) {
      auto& s = r.slots[static_cast<std::size_t>(a.slot % kSlots)];
      if (s != '\0') s = static_cast<char>(static_cast<unsigned char>(s) - 1);
    }
  }
}

void succeed(const Attempt& a, std::map<std::string, Row>& rows) {
  const auto buckets = buckets_for(a);
  std::int64_t forgiven = 0;
  for (const auto& b : buckets)
    if (b.role == Role::Pair || b.role == Role::Device) forgiven = rows[b.key].failures;
  for (const auto& b : buckets) {
    Row& r = rows[b.key];
    r.failures =
        (b.role == Role::Pair || b.role == Role::Device) ? 0 : std::max<std::int64_t>(0, r.failures - forgiven);
  }
}

std::int64_t expiry_ms(const Row& r, const Policy& p) {
  return r.last_ms + p.window_ms + block_length(p, std::max(r.failures, p.limit));
}

}  // namespace dozor::auth::throttle
