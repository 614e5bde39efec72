#pragma once
// Reads a .docx back for the report tests: every part by name (libzip), and an XML part parsed
// (pugixml) with the parse status kept, so a test can say "well-formed" and look inside.
#include <zip.h>

#include <map>
#include <memory>
#include <pugixml.hpp>
#include <stdexcept>
#include <string>

namespace dozor::test {

inline std::map<std::string, std::string> docx_parts(const std::string& bytes) {
  zip_error_t err;
  zip_error_init(&err);
  zip_source_t* src = zip_source_buffer_create(bytes.data(), bytes.size(), 0, &err);
  if (!src) throw std::runtime_error("zip source");
  zip_t* zip = zip_open_from_source(src, ZIP_RDONLY | ZIP_CHECKCONS, &err);
  if (!zip) {
    zip_source_free(src);
    zip_error_fini(&err);
    throw std::runtime_error("not a zip archive");
  }
  std::map<std::string, std::string> parts;
  const zip_int64_t n = zip_get_num_entries(zip, 0);
  for (zip_int64_t i = 0; i < n; ++i) {
    const auto idx = static_cast<zip_uint64_t>(i);
    zip_stat_t st;
    zip_stat_index(zip, idx, 0, &st);
    std::unique_ptr<zip_file_t, decltype(&zip_fclose)> f(zip_fopen_index(zip, idx, 0), zip_fclose);
    std::string data(static_cast<std::size_t>(st.size), '\0');
    if (!f || zip_fread(f.get(), data.data(), st.size) != static_cast<zip_int64_t>(st.size))
      throw std::runtime_error("cannot read a part");
    parts.emplace(st.name, std::move(data));
  }
  zip_discard(zip);
  zip_error_fini(&err);
  return parts;
}

struct Xml {
  pugi::xml_document doc;
  pugi::xml_parse_result result;
  explicit Xml(const std::string& text) : result(doc.load_string(text.c_str(), pugi::parse_default)) {}
  bool ok() const { return static_cast<bool>(result); }
};

// The text of every w:t under `node`, with w:br as '\n' and w:tab as '\t'.
inline std::string docx_text(pugi::xml_node node) {
  struct Walker : pugi::xml_tree_walker {
    std::string out;
    bool for_each(pugi::xml_node& n) override {
      const std::string name = n.name();
      if (name == "w:t") out += n.text().get();
      if (name == "w:br") out += '\n';
      if (name == "w:tab") out += '\t';
      return true;
    }
  } walker;
  if (std::string(node.name()) == "w:t") return node.text().get();
  node.traverse(walker);
  return walker.out;
}

}  // namespace dozor::test
