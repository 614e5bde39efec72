#pragma once
// The .docx package (ECMA-376 / ISO 29500 transitional) of a Document, zipped with libzip:
//   [Content_Types].xml, _rels/.rels, docProps/core.xml, docProps/app.xml,
//   word/document.xml, word/styles.xml, word/numbering.xml, word/settings.xml, word/footer1.xml,
//   word/_rels/document.xml.rels.
// The output is a function of the document alone (fixed zip timestamps, fixed part order), so
// two writes of one document with one `created` are byte-identical.
#include <stdexcept>
#include <string>

#include "engines/report/docx/document.hpp"

namespace dozor::report::docx {

// libzip failed (out of memory in practice).
struct PackageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The bytes of the .docx file.
std::string write_docx(const Document& doc);

}  // namespace dozor::report::docx
