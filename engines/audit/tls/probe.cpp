#include "engines/audit/tls/probe.hpp"

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <poll.h>

#include <algorithm>
#include <cerrno>
#include <memory>

#include "engines/net/connect.hpp"

namespace dozor::audit::tls {
namespace {

using Clock = std::chrono::steady_clock;

struct CtxFree {
  void operator()(SSL_CTX* c) const { SSL_CTX_free(c); }
};
struct SslFree {
  void operator()(SSL* s) const { SSL_free(s); }
};
struct X509Free {
  void operator()(X509* x) const { X509_free(x); }
};

// The newest OpenSSL error of this thread as text (the queue is emptied).
std::string openssl_error(const char* fallback) {
  unsigned long code = 0, last = 0;
  while ((code = ERR_get_error()) != 0) last = code;
  if (last == 0) return fallback;
  const char* reason = ERR_reason_error_string(last);
  return reason ? reason : fallback;
}

int poll_ms(Clock::time_point deadline) {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return static_cast<int>(std::clamp<long long>(left, 0, 1 << 30));
}

ProbeResult fail(ProbeResult::Outcome o, std::string error) {
  ProbeResult r;
  r.outcome = o;
  r.error = std::move(error);
  return r;
}

bool is_ip_literal(const std::string& host) { return net::IpAddress::parse(host).has_value(); }

void read_chain(SSL* ssl, const ProbeTarget& target, ProbeResult& r) {
  std::time_t now = std::time(nullptr);
  if (STACK_OF(X509)* chain = SSL_get_peer_cert_chain(ssl)) {
    int n = std::min(sk_X509_num(chain), 10);
    for (int i = 0; i < n; ++i) r.chain.push_back(read_cert(sk_X509_value(chain, i), now));
  }
  std::unique_ptr<X509, X509Free> leaf(SSL_get1_peer_certificate(ssl));
  if (!leaf) return;
  long v = SSL_get_verify_result(ssl);
  r.verified = v == X509_V_OK;
  if (v != X509_V_OK) r.verify_error = X509_verify_cert_error_string(v);
  int match = is_ip_literal(target.host)
                  ? X509_check_ip_asc(leaf.get(), target.host.c_str(), 0)
                  : X509_check_host(leaf.get(), target.host.c_str(), target.host.size(), 0, nullptr);
  if (match >= 0) r.hostname_match = match == 1;  // < 0: malformed input or an internal error
}

}  // namespace

std::string version_name(int version) {
  switch (version) {
    case TLS1_VERSION: return "TLSv1.0";
    case TLS1_1_VERSION: return "TLSv1.1";
    case TLS1_2_VERSION: return "TLSv1.2";
    case TLS1_3_VERSION: return "TLSv1.3";
    default: return "unknown";
  }
}

ProbeResult probe(const ProbeTarget& target, const ProbeSpec& spec, Clock::time_point deadline) {
  ERR_clear_error();
  std::unique_ptr<SSL_CTX, CtxFree> ctx(SSL_CTX_new(TLS_client_method()));
  if (!ctx) return fail(ProbeResult::Outcome::NotTestable, openssl_error("SSL_CTX_new failed"));
  // Level 0: we must be able to offer what a careful client refuses, to see if the server takes it.
  SSL_CTX_set_security_level(ctx.get(), 0);
  if (SSL_CTX_set_min_proto_version(ctx.get(), spec.min_version) != 1 ||
      SSL_CTX_set_max_proto_version(ctx.get(), spec.max_version) != 1)
    return fail(ProbeResult::Outcome::NotTestable, "this OpenSSL cannot speak " + version_name(spec.min_version));
  if (SSL_CTX_set_cipher_list(ctx.get(), spec.cipher_list.c_str()) != 1)
    return fail(ProbeResult::Outcome::NotTestable, "this OpenSSL has no cipher of " + spec.cipher_list);
  SSL_CTX_set_verify(ctx.get(), SSL_VERIFY_NONE, nullptr);  // verified below, the probe goes on regardless
  int store = target.ca_file.empty() ? SSL_CTX_set_default_verify_paths(ctx.get())
                                     : SSL_CTX_load_verify_locations(ctx.get(), target.ca_file.c_str(), nullptr);
  if (store != 1)
    return fail(ProbeResult::Outcome::NotTestable, "cannot load the trust anchors: " + openssl_error("?"));

  net::Socket sock;
  try {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left <= std::chrono::milliseconds(0)) return fail(ProbeResult::Outcome::Timeout, "no time left for this probe");
    sock = net::connect_gated(target.addresses, target.port, *target.policy, left);
  } catch (const net::ConnectError& e) {
    return fail(e.kind == net::ConnectError::Kind::Timeout ? ProbeResult::Outcome::Timeout
                                                           : ProbeResult::Outcome::ConnectFailed,
                e.what());
  }
  std::unique_ptr<SSL, SslFree> ssl(SSL_new(ctx.get()));
  if (!ssl) return fail(ProbeResult::Outcome::NotTestable, openssl_error("SSL_new failed"));
  if (SSL_set_fd(ssl.get(), sock.fd()) != 1)
    return fail(ProbeResult::Outcome::NotTestable, openssl_error("SSL_set_fd"));
  if (!is_ip_literal(target.host) &&
      SSL_ctrl(ssl.get(), SSL_CTRL_SET_TLSEXT_HOSTNAME, TLSEXT_NAMETYPE_host_name,
               const_cast<char*>(target.host.c_str())) != 1)  // SSL_set_tlsext_host_name without its C cast
    return fail(ProbeResult::Outcome::NotTestable, openssl_error("cannot set SNI"));

  for (;;) {
    ERR_clear_error();
    int rc = SSL_connect(ssl.get());
    if (rc == 1) break;
    int err = SSL_get_error(ssl.get(), rc);
    short events = 0;
    if (err == SSL_ERROR_WANT_READ)
      events = POLLIN;
    else if (err == SSL_ERROR_WANT_WRITE)
      events = POLLOUT;
    else if (err == SSL_ERROR_SYSCALL)
      return fail(ProbeResult::Outcome::Refused,
                  openssl_error(errno ? "connection closed during the handshake" : "connection closed by the server"));
    else
      return fail(ProbeResult::Outcome::Refused, openssl_error("handshake failed"));
    pollfd p{sock.fd(), events, 0};
    int n = 0;
    do {
      n = ::poll(&p, 1, poll_ms(deadline));
    } while (n < 0 && errno == EINTR);
    if (n == 0) return fail(ProbeResult::Outcome::Timeout, "the handshake timed out");
    if (n < 0) return fail(ProbeResult::Outcome::ConnectFailed, "poll failed");
  }
  ProbeResult r;
  r.outcome = ProbeResult::Outcome::Accepted;
  r.protocol = SSL_get_version(ssl.get());
  if (r.protocol == "TLSv1") r.protocol = "TLSv1.0";
  const char* cipher = SSL_get_cipher_name(ssl.get());
  r.cipher = cipher ? cipher : "";
  if (spec.want_chain) read_chain(ssl.get(), target, r);
  return r;
}

}  // namespace dozor::audit::tls
