// OpenAPI/Swagger documents (engines/scan/endpoints/api_doc.hpp), JSON or YAML from a scanned site:
// any text parses into a document or is refused (nullopt), within the size and depth bounds,
// without throwing or crashing.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "engines/scan/endpoints/api_doc.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto doc = dozor::endpoints::parse_api_document(std::string_view(reinterpret_cast<const char*>(data), size));
  if (doc)
    for (const auto& op : doc->operations) (void)op.params.size();
  return 0;
}
