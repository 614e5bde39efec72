#include "engines/net/unreachable.hpp"

#include <boost/test/unit_test.hpp>

#include "engines/net/multi_fetch.hpp"

using namespace dozor::net;

BOOST_AUTO_TEST_SUITE(net_unreachable)

BOOST_AUTO_TEST_CASE(only_failures_without_an_http_answer_count_as_never_answered) {
  for (auto k :
       {CheckError::Unreachable, CheckError::Timeout, CheckError::Connect, CheckError::Tls, CheckError::Transport})
    BOOST_TEST(never_answered(to_string(k)), to_string(k));
  for (auto k : {CheckError::None, CheckError::TooManyRedirects, CheckError::BadRedirect, CheckError::BadProxy,
                 CheckError::TooLarge, CheckError::OutOfScope, CheckError::Internal})
    BOOST_TEST(!never_answered(to_string(k)), to_string(k));
  BOOST_TEST(!never_answered(""));
}

// A certificate that fails verification was shown by a server that answers: the audit goes on and
// its TLS part reports the certificate (test_audit_tls.test_the_full_audit_has_the_tls_part).
BOOST_AUTO_TEST_CASE(a_certificate_verdict_is_an_answer_a_failed_handshake_is_not) {
  for (const char* verdict :
       {"SSL peer certificate or SSH remote key was not OK", "SSL certificate problem: self-signed certificate",
        "SSL certificate problem: certificate has expired",
        "SSL: no alternative certificate subject name matches target host name 'a.example'"})
    BOOST_TEST(!never_answered("tls", verdict), verdict);
  for (const char* failure : {"SSL connect error", "OpenSSL SSL_connect: SSL_ERROR_SYSCALL in connection to x:443",
                              "error:0A00010B:SSL routines::wrong version number"})
    BOOST_TEST(never_answered("tls", failure), failure);
}

BOOST_AUTO_TEST_CASE(the_reason_is_told_in_plain_words) {
  BOOST_TEST(no_answer_reason("connect", "Couldn't connect to server") == "connection refused");
  BOOST_TEST(no_answer_reason("timeout", "timed out after 3000 ms") == "timed out after 3000 ms");
  BOOST_TEST(no_answer_reason("timeout", "not finished within the crawl's time budget") == "timed out");
  BOOST_TEST(no_answer_reason("unreachable", kUnreachable) ==
             "the host name does not resolve, or only to addresses the egress policy refuses");
  BOOST_TEST(no_answer_reason("tls", "SSL peer certificate or SSH remote key was not OK") ==
             "TLS handshake failed: SSL peer certificate or SSH remote key was not OK");
  BOOST_TEST(no_answer_reason("transport", "Server returned nothing (no headers, no data)") ==
             "Server returned nothing (no headers, no data)");
  BOOST_TEST(no_answer_reason("transport", "") == "no answer");
}

BOOST_AUTO_TEST_CASE(the_detail_names_host_and_port) {
  BOOST_TEST(unreachable_detail("http://127.0.0.1:9/", "connection refused") ==
             "could not reach 127.0.0.1:9: connection refused");
  BOOST_TEST(unreachable_detail("https://Example.COM/a?b=1", "timed out") ==
             "could not reach example.com:443: timed out");
  BOOST_TEST(unreachable_detail("http://example.com/", "x") == "could not reach example.com:80: x");
  BOOST_TEST(unreachable_detail("http://[::1]:8080/", "x") == "could not reach [::1]:8080: x");
}

BOOST_AUTO_TEST_SUITE_END()
