#include "engines/vault/multipart.hpp"

#include <boost/test/unit_test.hpp>
#include <string>
#include <vector>

using dozor::vault::multipart_boundary;
using dozor::vault::MultipartError;
using dozor::vault::MultipartParser;
using dozor::vault::MultipartSink;
using dozor::vault::PartHeaders;

namespace {

struct Collect : MultipartSink {
  std::vector<PartHeaders> heads;
  std::vector<std::string> bodies;
  int ended = 0;
  void on_part(const PartHeaders& h) override {
    heads.push_back(h);
    bodies.emplace_back();
  }
  void on_data(std::string_view b) override { bodies.back().append(b); }
  void on_part_end() override { ++ended; }
};

const std::string kBody =
    "preamble\r\n--XyZ\r\n"
    "Content-Disposition: form-data; name=\"file\"; filename=\"a \\\"q\\\".txt\"\r\n"
    "Content-Type: text/plain\r\n\r\n"
    "hello --XyZ not at a line start\r\n-XyZ\r\nworld\r\n"
    "--XyZ\r\n"
    "Content-Disposition: form-data; name=\"file\"; filename=\"x\"; filename*=UTF-8''%D0%BF.bin\r\n\r\n"
    "\r\n--XyZ--\r\nepilogue";

Collect parse_in_chunks(std::size_t chunk) {
  Collect c;
  MultipartParser p("XyZ", c);
  for (std::size_t i = 0; i < kBody.size(); i += chunk) p.feed(std::string_view(kBody).substr(i, chunk));
  p.finish();
  return c;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(vault_multipart)

// Whatever the chunking, the parts are the same: a boundary split across reads is still found.
BOOST_AUTO_TEST_CASE(parts_are_the_same_for_every_chunk_size) {
  for (std::size_t chunk : {1u, 2u, 3u, 7u, 16u, 1000u}) {
    auto c = parse_in_chunks(chunk);
    BOOST_TEST_REQUIRE(c.heads.size() == 2u);
    BOOST_TEST(c.ended == 2);
    BOOST_TEST(*c.heads[0].filename == "a \"q\".txt");
    BOOST_TEST(c.heads[0].content_type == "text/plain");
    BOOST_TEST(c.bodies[0] == "hello --XyZ not at a line start\r\n-XyZ\r\nworld");
    BOOST_TEST(*c.heads[1].filename == "\xd0\xbf.bin");
    BOOST_TEST(c.bodies[1] == "");
  }
}

BOOST_AUTO_TEST_CASE(a_truncated_body_is_an_error) {
  Collect c;
  MultipartParser p("XyZ", c);
  p.feed(kBody.substr(0, kBody.size() / 2));
  BOOST_CHECK_THROW(p.finish(), MultipartError);
}

BOOST_AUTO_TEST_CASE(oversized_part_headers_are_refused) {
  Collect c;
  MultipartParser p("b", c);
  std::string body = "--b\r\nContent-Disposition: form-data; name=\"" + std::string(9000, 'x');
  BOOST_CHECK_THROW(p.feed(body), MultipartError);
}

BOOST_AUTO_TEST_CASE(parts_without_disposition_are_refused) {
  Collect c;
  MultipartParser p("b", c);
  BOOST_CHECK_THROW(p.feed("--b\r\nContent-Type: text/plain\r\n\r\nx\r\n--b--"), MultipartError);
}

BOOST_AUTO_TEST_CASE(boundary_comes_from_the_content_type) {
  BOOST_TEST(*multipart_boundary("multipart/form-data; boundary=abc") == "abc");
  BOOST_TEST(*multipart_boundary("Multipart/Form-Data; charset=x; boundary=\"a b'c\"") == "a b'c");
  BOOST_TEST(!multipart_boundary("application/json"));
  BOOST_TEST(!multipart_boundary("multipart/form-data"));
  BOOST_TEST(!multipart_boundary("multipart/form-data; boundary=" + std::string(71, 'a')));
  BOOST_TEST(!multipart_boundary("multipart/form-data; boundary=a\r\nb"));
}

BOOST_AUTO_TEST_SUITE_END()
