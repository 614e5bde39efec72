// The vault's malware check engine on the repository's test signatures (tests/fixtures/clamav:
// EICAR by its MD5 and a Dozor marker by its bytes).
#include "engines/analyzer/clamav_scanner.hpp"

#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "dozor_source_dir.hpp"

using dozor::analyzer::ClamavScanner;
using dozor::analyzer::MalwareEngineError;

namespace {

const std::string kDatabase = std::string(DOZOR_SOURCE_DIR) + "/tests/fixtures/clamav";
const std::string kEicar = R"(X5O!P%@AP[4\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*)";
const std::string kMarker = "DOZOR-CLAMAV-TEST-MARKER-6b1f";

const ClamavScanner& scanner() {
  static const ClamavScanner s(kDatabase, 1 << 20);
  return s;
}

bool starts_with(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

}  // namespace

BOOST_AUTO_TEST_SUITE(clamav_scanner)

BOOST_AUTO_TEST_CASE(loads_the_fixture_signatures) {
  BOOST_TEST(scanner().signatures() == 2U);
  BOOST_TEST(!scanner().version().empty());
}

BOOST_AUTO_TEST_CASE(the_eicar_file_is_infected) {
  auto v = scanner().scan(kEicar);
  BOOST_TEST(v.infected);
  BOOST_TEST(starts_with(v.signature, "Eicar-Test-Signature"), v.signature);
}

BOOST_AUTO_TEST_CASE(a_marker_inside_a_larger_file_is_found) {
  std::string doc(100000, 'a');
  doc.replace(54321, kMarker.size(), kMarker);
  auto v = scanner().scan(doc);
  BOOST_TEST(v.infected);
  BOOST_TEST(starts_with(v.signature, "Dozor.Test.Marker-1"), v.signature);
}

BOOST_AUTO_TEST_CASE(clean_bytes_are_clean) {
  auto v = scanner().scan("Hello, vault. " + kMarker.substr(0, 20));
  BOOST_TEST(!v.infected);
  BOOST_TEST(v.signature.empty());
  // One byte changed in EICAR: its MD5 no longer matches.
  std::string almost = kEicar;
  almost.back() = '+';
  BOOST_TEST(!scanner().scan(almost).infected);
}

BOOST_AUTO_TEST_CASE(a_directory_without_signatures_is_refused) {
  auto dir = std::filesystem::temp_directory_path() / ("dozor-clamav-empty-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  BOOST_CHECK_EXCEPTION(ClamavScanner(dir.string(), 1 << 20), MalwareEngineError, [](const MalwareEngineError& e) {
    return std::string(e.what()).find("ClamAV") != std::string::npos;
  });
  std::filesystem::remove_all(dir);
  BOOST_CHECK_THROW(ClamavScanner(dir.string() + "-missing", 1 << 20), MalwareEngineError);
}

BOOST_AUTO_TEST_CASE(database_files_are_counted_without_loading_them) {
  BOOST_TEST(dozor::analyzer::clamav_database_files(kDatabase) == 2);
  BOOST_TEST(dozor::analyzer::clamav_database_files(kDatabase + "/missing") == 0);
  BOOST_TEST(dozor::analyzer::clamav_database_files(std::string(DOZOR_SOURCE_DIR) + "/docs") == 0);
}

BOOST_AUTO_TEST_SUITE_END()
