#include "fcgi/multipart.hpp"

#include <boost/test/unit_test.hpp>

using namespace dozor::http;

BOOST_AUTO_TEST_SUITE(multipart)

BOOST_AUTO_TEST_CASE(boundary_from_content_type) {
  BOOST_TEST(*multipart_boundary("multipart/form-data; boundary=abc") == "abc");
  BOOST_TEST(*multipart_boundary("Multipart/Form-Data; charset=utf-8; boundary=\"a b\"") == "a b");
  BOOST_TEST(!multipart_boundary("text/plain; boundary=abc"));
  BOOST_TEST(!multipart_boundary("multipart/form-data"));
  BOOST_TEST(!multipart_boundary("multipart/form-data; boundary=" + std::string(71, 'x')));
}

BOOST_AUTO_TEST_CASE(parts_with_names_files_and_types) {
  std::string body =
      "--B\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhi\r\n"
      "--B\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.pdf\"\r\nContent-Type: "
      "application/pdf\r\n\r\n"
      "%PDF\r\n--x\r\n--B--\r\n";
  auto parts = parse_multipart(body, "B");
  BOOST_REQUIRE(parts);
  BOOST_REQUIRE(parts->size() == 2u);
  BOOST_TEST((*parts)[0].name == "note");
  BOOST_TEST((*parts)[0].data == "hi");
  BOOST_TEST((*parts)[1].filename == "a.pdf");
  BOOST_TEST((*parts)[1].content_type == "application/pdf");
  BOOST_TEST((*parts)[1].data == "%PDF\r\n--x");  // a near-delimiter inside the data stays data
}

BOOST_AUTO_TEST_CASE(malformed_bodies_are_refused) {
  BOOST_TEST(!parse_multipart("no delimiter", "B"));
  BOOST_TEST(!parse_multipart("--B\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nunterminated", "B"));
  BOOST_TEST(!parse_multipart("--B\r\nno header end", "B"));
  std::string many;
  for (int i = 0; i < 20; ++i) many += "--B\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\nv\r\n";
  BOOST_TEST(!parse_multipart(many + "--B--", "B", 16));
}

BOOST_AUTO_TEST_SUITE_END()
