// The analyzer's pdf extractor on hostile bytes, then the detector over what it extracted:
// any input ends in a document or in BadDocument/UnsupportedDocument, within the limits.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "dozor_source_dir.hpp"
#include "engines/analyzer/analyzer.hpp"

namespace a = dozor::analyzer;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const a::Analyzer analyzer(std::string(DOZOR_SOURCE_DIR) + "/share/analyzer");
  std::string_view in(reinterpret_cast<const char*>(data), size);
  try {
    auto doc = a::extract_pdf(in, {});
    analyzer.analyze(doc);
  } catch (const a::BadDocument&) {
  } catch (const a::UnsupportedDocument&) {
  }
  return 0;
}
