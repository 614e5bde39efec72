#include "fcgi/nginx_proof.hpp"

#include <boost/test/unit_test.hpp>

using dozor::fcgi::check_nginx_proof;
using dozor::fcgi::NginxProof;

namespace {

const std::string kKey(64, 'a');

dozor::http::Request with(std::map<std::string, std::string> params) {
  dozor::http::Request r;
  r.params = std::move(params);
  return r;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(nginx_proof)

BOOST_AUTO_TEST_CASE(only_nginxs_key_passes_and_it_is_removed_from_the_request) {
  auto r = with({{"DOZOR_NGINX_KEY", kKey}, {"DOZOR_CALLER_ID", "7"}});
  BOOST_TEST((check_nginx_proof(r, kKey) == NginxProof::Valid));
  BOOST_TEST(!r.params.count("DOZOR_NGINX_KEY"));  // no handler or log ever sees it
  BOOST_TEST(r.params.at("DOZOR_CALLER_ID") == "7");
}

BOOST_AUTO_TEST_CASE(a_missing_empty_or_wrong_key_is_refused) {
  auto missing = with({{"DOZOR_CALLER_ID", "1"}, {"DOZOR_CALLER_ADMIN", "1"}});
  BOOST_TEST((check_nginx_proof(missing, kKey) == NginxProof::Missing));
  auto empty = with({{"DOZOR_NGINX_KEY", ""}});
  BOOST_TEST((check_nginx_proof(empty, kKey) == NginxProof::Missing));
  BOOST_TEST(!empty.params.count("DOZOR_NGINX_KEY"));
  for (const std::string& wrong :
       {std::string(63, 'a'), std::string(65, 'a'), std::string(63, 'a') + "b", kKey + " "}) {
    auto r = with({{"DOZOR_NGINX_KEY", wrong}});
    BOOST_TEST((check_nginx_proof(r, kKey) == NginxProof::Wrong), wrong.size());
    BOOST_TEST(!r.params.count("DOZOR_NGINX_KEY"));
  }
}

BOOST_AUTO_TEST_SUITE_END()
