#include "engines/vault/serve.hpp"

#include <boost/test/unit_test.hpp>

using namespace dozor::vault;

BOOST_AUTO_TEST_SUITE(vault_serve)

BOOST_AUTO_TEST_CASE(content_disposition_is_well_formed_for_every_name) {
  BOOST_TEST(content_disposition(false, "report.pdf") ==
             "attachment; filename=\"report.pdf\"; filename*=UTF-8''report.pdf");
  BOOST_TEST(content_disposition(false, "a\"b;c%d?.txt") ==
             "attachment; filename=\"a_b_c_d?.txt\"; filename*=UTF-8''a%22b%3Bc%25d%3F.txt");
  BOOST_TEST(content_disposition(true, "\xd0\xbe\xd1\x82\xd1\x87\xd1\x91\xd1\x82.txt") ==
             "inline; filename=\"_____.txt\"; filename*=UTF-8''%D0%BE%D1%82%D1%87%D1%91%D1%82.txt");
  BOOST_TEST(content_disposition(false, "\xe4\xb8\xad") == "attachment; filename=\"_\"; filename*=UTF-8''%E4%B8%AD");
}

BOOST_AUTO_TEST_CASE(accel_uri_encodes_everything_but_unreserved_and_slashes) {
  BOOST_TEST(accel_uri(VaultPath::parse("/a b/c?d#e%f.txt")) == "/_vault_files/a%20b/c%3Fd%23e%25f.txt");
}

BOOST_AUTO_TEST_CASE(only_script_free_types_are_shown_inline) {
  BOOST_TEST(view_policy("image/png").as_inline);
  BOOST_TEST(view_policy("application/pdf").as_inline);
  BOOST_TEST(view_policy("video/mp4").as_inline);
  BOOST_TEST(view_policy("text/x-c").content_type == "text/plain; charset=utf-8");
  for (const char* t : {"text/html", "image/svg+xml", "text/xml", "application/xml", "application/javascript",
                        "application/octet-stream", "application/xhtml+xml"}) {
    auto d = view_policy(t);
    BOOST_TEST(!d.as_inline, t);
    BOOST_TEST(d.content_type == "application/octet-stream", t);
  }
}

BOOST_AUTO_TEST_SUITE_END()
