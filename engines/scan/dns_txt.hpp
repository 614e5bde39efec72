#pragma once
// A DNS TXT lookup for proofs of control (engines/scan/verify, docs/scan.md "Proof of control"):
// one UDP query with recursion desired to one resolver (scanner.dns_resolver, else the first
// nameserver of /etc/resolv.conf), a random id, the answer checked against the question asked.
// The wire format is built and read here, with bounds on every length (RFC 1035 §4), so that a
// hostile resolver answer cannot read past the packet.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dozor::scan::dns {

// The query packet for the TXT records of `name` (labels ≤ 63 octets, the name ≤ 253
// characters); nullopt for a name that cannot be asked.
std::optional<std::string> build_txt_query(std::uint16_t id, std::string_view name);

struct TxtAnswer {
  bool ok = false;                   // a valid answer (NXDOMAIN and "no TXT record" included)
  std::vector<std::string> records;  // each record's strings joined, at most limits::scope::kTxtRecords
  std::string error;                 // why not ok
};

// Reads an answer to build_txt_query(id, name): the id, the response bit, the question echoed,
// truncation (not retried over TCP: a proof record is short), the return code, then every TXT
// record of class IN among the answers.
TxtAnswer parse_txt_answer(std::string_view packet, std::uint16_t id, std::string_view name);

struct Resolver {
  std::string address;  // an IPv4 or IPv6 literal
  int port = 53;
};

// "192.0.2.1", "192.0.2.1:5353", "[2001:db8::1]:53", "2001:db8::1"; nullopt otherwise.
std::optional<Resolver> parse_resolver(std::string_view text);
// The first usable "nameserver" line of a resolv.conf text.
std::optional<Resolver> resolver_from_resolv_conf(std::string_view text);

// One query and its answer within `timeout`.
TxtAnswer lookup_txt(std::string_view name, const Resolver& resolver, std::chrono::milliseconds timeout);

}  // namespace dozor::scan::dns
