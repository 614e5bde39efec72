#pragma once
// Our own data files under share/audit (docs/audit.md): JSON objects with "format": 1. Read and
// checked the same way by every engine's loader; errors name the data set ("passive rules",
// "technologies/cms.json" …) so a bad file stops dozor-fcgi's start with a clear reason.
#include <boost/json/object.hpp>
#include <filesystem>
#include <string>
#include <string_view>

namespace dozor::audit {

// The whole file; throws "<what>: cannot read <path>".
std::string read_data_file(const std::filesystem::path& path, std::string_view what);

// The text as a JSON object of format 1; throws "<what>: not JSON: …", "<what>: the file must be
// a JSON object" or "<what>: unsupported 'format' (expected 1)".
boost::json::object parse_data_object(std::string_view text, std::string_view what);

}  // namespace dozor::audit
