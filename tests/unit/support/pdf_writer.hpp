#pragma once
// Writes a PDF in memory for the extractor tests: hostile pages are built where the test states
// their shape instead of committed as opaque files. Uncompressed streams, a correct xref.
#include <string>
#include <string_view>
#include <vector>

namespace dozor::test {

// A stream object: its dictionary's entries (without << >>), /Length added.
inline std::string pdf_stream(std::string_view entries, std::string_view data) {
  return "<< " + std::string(entries) + " /Length " + std::to_string(data.size()) + " >>\nstream\n" +
         std::string(data) + "\nendstream";
}

// The file of `objects`, numbered from 1; object 1 is the catalog.
inline std::string pdf_bytes(const std::vector<std::string>& objects) {
  std::string out = "%PDF-1.4\n";
  std::vector<std::size_t> offsets;
  for (std::size_t i = 0; i < objects.size(); ++i) {
    offsets.push_back(out.size());
    out += std::to_string(i + 1) + " 0 obj\n" + objects[i] + "\nendobj\n";
  }
  std::size_t xref = out.size();
  out += "xref\n0 " + std::to_string(objects.size() + 1) + "\n0000000000 65535 f \n";
  for (std::size_t off : offsets) {
    std::string n = std::to_string(off);
    out += std::string(10 - n.size(), '0') + n + " 00000 n \n";
  }
  out += "trailer\n<< /Size " + std::to_string(objects.size() + 1) + " /Root 1 0 R >>\nstartxref\n" +
         std::to_string(xref) + "\n%%EOF\n";
  return out;
}

// One Letter page with Helvetica as /F1, its content, and form XObjects /X0, /X1, … (objects
// 5, 6, …; each form may draw the next one as /X, and any of them /F1).
inline std::string pdf_page(std::string_view content, const std::vector<std::string>& forms = {}) {
  std::string xobjects;
  for (std::size_t i = 0; i < forms.size(); ++i)
    xobjects += "/X" + std::to_string(i) + " " + std::to_string(5 + i) + " 0 R ";
  std::vector<std::string> objects{
      "<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> /XObject << " +
          xobjects + ">> >> /Contents " + std::to_string(5 + forms.size()) + " 0 R >>",
      "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"};
  for (std::size_t i = 0; i < forms.size(); ++i) {
    std::string next = i + 1 < forms.size() ? "/XObject << /X " + std::to_string(6 + i) + " 0 R >> " : "";
    objects.push_back(pdf_stream(
        "/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> " + next + ">>",
        forms[i]));
  }
  objects.push_back(pdf_stream("", content));
  return pdf_bytes(objects);
}

}  // namespace dozor::test
