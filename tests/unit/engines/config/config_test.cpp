#include "engines/config/config.hpp"

#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <fstream>

using namespace dozor::config;

BOOST_AUTO_TEST_SUITE(config)

BOOST_AUTO_TEST_CASE(defaults_without_file_content) {
  auto c = parse("", {});
  BOOST_TEST(c.server.threads == 16);
  BOOST_TEST(c.server.max_body == 1 << 20);
  BOOST_TEST(c.server.workers >= 1);
  BOOST_TEST(!c.scanner.allow_private_targets);
  BOOST_TEST(c.auth.token_lifetime == 43200);
  BOOST_TEST(c.monitor.timeout == 10);
}

BOOST_AUTO_TEST_CASE(file_values_are_read) {
  auto c = parse("[server]\nworkers = 3\nsocket_mode = \"0666\"\n[database]\nname = \"x\"\n", {});
  BOOST_TEST(c.server.workers == 3);
  BOOST_TEST(c.server.socket_mode == 0666u);
  BOOST_TEST(c.database.name == "x");
}

BOOST_AUTO_TEST_CASE(environment_overrides_the_file) {
  auto c = parse("[scanner]\nallow_private_targets = false\n[server]\nmax_body = 2048\n",
                 {"DOZOR_SCANNER_ALLOW_PRIVATE_TARGETS=true", "DOZOR_SERVER_MAX_BODY=4096", "DOZOR_TEST_BASE_URL=x"});
  BOOST_TEST(c.scanner.allow_private_targets);
  BOOST_TEST(c.server.max_body == 4096);
}

// They name a Tesseract data file: only language names joined by '+' are taken.
BOOST_AUTO_TEST_CASE(ocr_languages_are_names_joined_by_plus) {
  auto c = parse("", {});
  BOOST_TEST(!c.analyzer.ocr);
  BOOST_TEST(c.analyzer.ocr_languages == "rus+eng");
  BOOST_TEST(parse("[analyzer]\nocr = true\nocr_languages = \"eng+chi_sim\"\n", {}).analyzer.ocr_languages ==
             "eng+chi_sim");
  for (const char* bad : {"", "rus+", "../etc/passwd", "rus eng", "RUS", "ru"})
    BOOST_CHECK_THROW(parse(std::string("[analyzer]\nocr_languages = \"") + bad + "\"\n", {}), ConfigError);
}

// vault.docserver_url becomes a CSP source of the editor page: only a bare origin passes.
BOOST_AUTO_TEST_CASE(the_document_server_url_is_a_bare_origin) {
  auto with = [](const std::string& url) {
    return parse("[vault]\ndocserver_url = \"" + url + "\"\ndocserver_jwt_secret = \"0123456789abcdef\"\n", {});
  };
  for (const char* ok : {"https://docs.example.com", "http://127.0.0.1:8080", "https://docs-1.example.com:65535"})
    BOOST_CHECK_NO_THROW(with(ok));
  for (const char* bad : {"https://docs.example.com/", "https://docs.example.com/path", "https://a b",
                          "https://a;script-src *", "https://docs.example.com:", "https://docs.example.com:1234567",
                          "ftp://docs.example.com", "https://", "https://[]", "https://[::1", "http://[::1]:8080",
                          "https://user@docs.example.com", "https://docs.example.com?x"})
    BOOST_CHECK_THROW(with(bad), ConfigError);
}

BOOST_AUTO_TEST_CASE(the_default_mail_sender_is_one_plain_address) {
  BOOST_TEST(parse("", {}).notify.smtp_from.empty());
  BOOST_TEST(parse("[notify]\nsmtp_from = \"dozor@example.org\"\n", {}).notify.smtp_from == "dozor@example.org");
  BOOST_TEST(parse("", {"DOZOR_NOTIFY_SMTP_FROM=ops@example.org"}).notify.smtp_from == "ops@example.org");
  for (std::string bad : {"dozor", "a@b", "Dozor <dozor@example.org>", "a@example.org, b@example.org",
                          "a@example.org\\r\\nBcc: x@example.org", "a b@example.org", "@example.org"})
    BOOST_CHECK_THROW(parse("[notify]\nsmtp_from = \"" + bad + "\"\n", {}), ConfigError);
  BOOST_CHECK_THROW(parse("", {"DOZOR_NOTIFY_SMTP_FROM=a@example.org\r\nRCPT TO:<x@example.org>"}), ConfigError);
}

BOOST_AUTO_TEST_CASE(unknown_keys_and_bad_values_are_errors) {
  BOOST_CHECK_THROW(parse("[server]\nwrokers = 2\n", {}), ConfigError);
  BOOST_CHECK_THROW(parse("[server]\nworkers = \"two\"\n", {}), ConfigError);
  BOOST_CHECK_THROW(parse("[server]\nthreads = 0\n", {}), ConfigError);
  BOOST_CHECK_THROW(parse("", {"DOZOR_SERVER_WORKERS=lots"}), ConfigError);
  BOOST_CHECK_THROW(parse("[server\n", {}), ConfigError);
}

BOOST_AUTO_TEST_CASE(monitor_locations_at_n_and_n_plus_1) {
  auto c = parse("", {});
  BOOST_TEST(c.monitor.location == "default");
  BOOST_TEST(c.monitor.confirm_locations == 1);
  BOOST_TEST(parse("[monitor]\nconfirm_locations = 16\n", {}).monitor.confirm_locations == 16);
  BOOST_CHECK_THROW(parse("[monitor]\nconfirm_locations = 17\n", {}), ConfigError);
  BOOST_CHECK_THROW(parse("[monitor]\nconfirm_locations = 0\n", {}), ConfigError);
  std::string longest(64, 'm');
  BOOST_TEST(parse("[monitor]\nlocation = \"" + longest + "\"\n", {}).monitor.location == longest);
  BOOST_CHECK_THROW(parse("[monitor]\nlocation = \"" + longest + "m\"\n", {}), ConfigError);
  BOOST_TEST(parse("[monitor]\nlocation = \"eu-west.1_b\"\n", {}).monitor.location == "eu-west.1_b");
  // A comma would split the location in service_state.failed_locations.
  BOOST_CHECK_THROW(parse("[monitor]\nlocation = \"msk,spb\"\n", {}), ConfigError);
  BOOST_CHECK_THROW(parse("[monitor]\nlocation = \"\"\n", {}), ConfigError);
}

BOOST_AUTO_TEST_CASE(monitor_defaults_and_bounds_at_n_and_n_plus_1) {
  auto c = parse("", {});
  BOOST_TEST(c.monitor.failures_to_down == 2);
  BOOST_TEST(c.monitor.successes_to_up == 1);
  BOOST_TEST(c.monitor.retention_days == 30);
  BOOST_TEST(c.monitor.rollup_retention_days == 400);
  BOOST_TEST(c.monitor.lease_seconds == 30);
  // A lease must outlast a check: timeout + 5 is the shortest accepted.
  BOOST_TEST(parse("[monitor]\ntimeout = 10\nlease_seconds = 15\n", {}).monitor.lease_seconds == 15);
  BOOST_CHECK_THROW(parse("[monitor]\ntimeout = 10\nlease_seconds = 14\n", {}), ConfigError);
  // Rollups summarise raw checks, so they are kept at least as long.
  BOOST_TEST(parse("[monitor]\nretention_days = 30\nrollup_retention_days = 30\n", {}).monitor.rollup_retention_days ==
             30);
  BOOST_CHECK_THROW(parse("[monitor]\nretention_days = 30\nrollup_retention_days = 29\n", {}), ConfigError);
  BOOST_CHECK_THROW(parse("[monitor]\nrollup_retention_days = 3651\n", {}), ConfigError);
  BOOST_CHECK_THROW(parse("[monitor]\nfailures_to_down = 0\n", {}), ConfigError);
}

BOOST_AUTO_TEST_CASE(password_file_is_a_key_and_excludes_a_second_password) {
  auto c = parse("[database]\npassword_file = \"/etc/dozor/database.password\"\n", {});
  BOOST_TEST(c.database.password_file == "/etc/dozor/database.password");
  BOOST_TEST(c.database.password.empty());
  // A password left in the environment (the old dozor.env) beside the file is refused before any read.
  auto both = parse("[database]\npassword_file = \"/nonexistent/x\"\n", {"DOZOR_DATABASE_PASSWORD=old"});
  BOOST_CHECK_EXCEPTION(read_password_file(both), ConfigError, [](const ConfigError& e) {
    return std::string(e.what()).find("both set") != std::string::npos;
  });
  auto missing = parse("", {"DOZOR_DATABASE_PASSWORD_FILE=/nonexistent/dozor-password"});
  BOOST_CHECK_EXCEPTION(read_password_file(missing), ConfigError, [](const ConfigError& e) {
    return std::string(e.what()).find("cannot read database.password_file /nonexistent/dozor-password") !=
           std::string::npos;
  });
  auto none = parse("[database]\npassword = \"p\"\n", {});
  read_password_file(none);  // no file named: the password stays
  BOOST_TEST(none.database.password == "p");
}

// The key nginx sends on a FastCGI socket (docs/install.md "The FastCGI sockets"): 32 to 256
// characters safe inside an nginx directive, tested at N and N+1; "" turns the check off.
BOOST_AUTO_TEST_CASE(the_nginx_key_file_holds_32_to_256_safe_characters) {
  auto dir = std::filesystem::temp_directory_path() / ("dozor-key-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  auto write = [&](const std::string& text) {
    auto p = (dir / "k").string();
    std::ofstream(p, std::ios::trunc) << text;
    return p;
  };
  BOOST_TEST(read_nginx_key(write(std::string(32, 'a') + "\n"), "server.nginx_key_file") == std::string(32, 'a'));
  BOOST_TEST(read_nginx_key(write(std::string(256, 'F')), "k") == std::string(256, 'F'));
  BOOST_TEST(read_nginx_key(write("0123456789abcdef-_ABCDEF0123456789\r\n"), "k") ==
             "0123456789abcdef-_ABCDEF0123456789");
  for (const std::string& bad : {std::string(31, 'a'), std::string(257, 'a'), std::string(40, 'a') + "\";",
                                 std::string(40, 'a') + " b", std::string()})
    BOOST_CHECK_EXCEPTION(read_nginx_key(write(bad), "server.nginx_key_file"), ConfigError, [](const ConfigError& e) {
      return std::string(e.what()).find("server.nginx_key_file") != std::string::npos;
    });
  BOOST_CHECK_THROW(read_nginx_key((dir / "missing").string(), "k"), ConfigError);
  BOOST_TEST(read_nginx_key("", "k").empty());
  auto c = parse("[server]\nnginx_key_file = \"\"\n[analyzer]\nnginx_key_file = \"/x\"\n", {});
  BOOST_TEST(c.server.nginx_key_file.empty());
  BOOST_TEST(c.analyzer.nginx_key_file == "/x");
  BOOST_TEST(Config{}.server.nginx_key_file == "/etc/dozor/nginx-fcgi.key");
  std::filesystem::remove_all(dir);
}

BOOST_AUTO_TEST_SUITE_END()
