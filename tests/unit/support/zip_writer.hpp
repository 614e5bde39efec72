#pragma once
// Writes a ZIP archive in memory (libzip, deflated) for the extractor tests: hostile workbooks
// are built where the test states their shape instead of committed as opaque files.
#include <zip.h>

#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace dozor::test {

// The archive of `parts` (name → bytes), in the map's order.
inline std::string zip_bytes(const std::map<std::string, std::string>& parts) {
  zip_error_t err;
  zip_error_init(&err);
  zip_source_t* source = zip_source_buffer_create(nullptr, 0, 0, &err);
  if (!source) throw std::runtime_error("zip: cannot create the buffer");
  zip_t* zip = zip_open_from_source(source, ZIP_TRUNCATE, &err);
  if (!zip) {
    zip_source_free(source);
    throw std::runtime_error("zip: cannot open the archive");
  }
  zip_source_keep(source);  // read after zip_close
  for (const auto& [name, bytes] : parts) {
    zip_source_t* s = zip_source_buffer(zip, bytes.data(), bytes.size(), 0);
    if (!s || zip_file_add(zip, name.c_str(), s, ZIP_FL_ENC_UTF_8) < 0) {
      if (s) zip_source_free(s);
      zip_discard(zip);
      zip_source_free(source);
      throw std::runtime_error("zip: cannot add " + name);
    }
  }
  if (zip_close(zip) != 0) {
    zip_discard(zip);
    zip_source_free(source);
    throw std::runtime_error("zip: cannot write the archive");
  }
  std::string out;
  if (zip_source_open(source) == 0) {
    char buf[65536];
    zip_int64_t n = 0;
    while ((n = zip_source_read(source, buf, sizeof buf)) > 0) out.append(buf, static_cast<std::size_t>(n));
    zip_source_close(source);
  }
  zip_source_free(source);
  zip_error_fini(&err);
  return out;
}

inline std::string xml_escaped(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '&')
      o += "&amp;";
    else if (c == '<')
      o += "&lt;";
    else if (c == '>')
      o += "&gt;";
    else if (c == '"')
      o += "&quot;";
    else
      o += c;
  }
  return o;
}

// A workbook of one sheet named `sheet`. Each row is a list of cells; a cell "#N" refers to
// shared string N of `shared`, any other text is an inline string. Columns are A, B, … by
// position (references like "AB12" past Z too).
inline std::string xlsx_bytes(const std::vector<std::vector<std::string>>& rows,
                              const std::vector<std::string>& shared = {}, const std::string& sheet = "Лист1") {
  auto column = [](std::size_t col) {  // 1 → A
    std::string s;
    while (col > 0) {
      --col;
      s.insert(s.begin(), static_cast<char>('A' + col % 26));
      col /= 26;
    }
    return s;
  };
  std::string data;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    data += "<row r=\"" + std::to_string(r + 1) + "\">";
    for (std::size_t c = 0; c < rows[r].size(); ++c) {
      const auto& v = rows[r][c];
      std::string ref = column(c + 1) + std::to_string(r + 1);
      if (!v.empty() && v[0] == '#')
        data += "<c r=\"" + ref + "\" t=\"s\"><v>" + v.substr(1) + "</v></c>";
      else
        data += "<c r=\"" + ref + "\" t=\"inlineStr\"><is><t>" + xml_escaped(v) + "</t></is></c>";
    }
    data += "</row>";
  }
  std::map<std::string, std::string> parts;
  parts["[Content_Types].xml"] =
      "<?xml version=\"1.0\"?><Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\"/>";
  parts["xl/workbook.xml"] =
      "<?xml version=\"1.0\"?><workbook xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\" "
      "xmlns:r=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships\"><sheets><sheet name=\"" +
      xml_escaped(sheet) + "\" sheetId=\"1\" r:id=\"rId1\"/></sheets></workbook>";
  parts["xl/_rels/workbook.xml.rels"] =
      "<?xml version=\"1.0\"?><Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">"
      "<Relationship Id=\"rId1\" "
      "Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet\" "
      "Target=\"worksheets/sheet1.xml\"/></Relationships>";
  parts["xl/worksheets/sheet1.xml"] =
      "<?xml version=\"1.0\"?><worksheet xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\">"
      "<sheetData>" +
      data + "</sheetData></worksheet>";
  if (!shared.empty()) {
    std::string sst =
        "<?xml version=\"1.0\"?><sst xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\">";
    for (const auto& s : shared) sst += "<si><t>" + xml_escaped(s) + "</t></si>";
    parts["xl/sharedStrings.xml"] = sst + "</sst>";
  }
  return zip_bytes(parts);
}

}  // namespace dozor::test
