#include "engines/audit/data_file.hpp"

#include <boost/json/parse.hpp>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace dozor::audit {

std::string read_data_file(const std::filesystem::path& path, std::string_view what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(std::string(what) + ": cannot read " + path.string());
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

boost::json::object parse_data_object(std::string_view text, std::string_view what) {
  boost::json::value root;
  try {
    root = boost::json::parse(text);
  } catch (const std::exception& e) {
    throw std::runtime_error(std::string(what) + ": not JSON: " + e.what());
  }
  if (!root.is_object()) throw std::runtime_error(std::string(what) + ": the file must be a JSON object");
  auto& o = root.as_object();
  const auto* format = o.if_contains("format");
  if (!format || !format->is_int64() || format->as_int64() != 1)
    throw std::runtime_error(std::string(what) + ": unsupported 'format' (expected 1)");
  return std::move(o);
}

}  // namespace dozor::audit
