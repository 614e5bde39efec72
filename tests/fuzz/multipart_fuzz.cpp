// The streaming multipart parser: any input either parses or fails with MultipartError, and
// the parts are the same whether the body arrives whole or in small chunks.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "engines/vault/multipart.hpp"

namespace {

struct Collect : dozor::vault::MultipartSink {
  std::string log;
  void on_part(const dozor::vault::PartHeaders& h) override {
    log += "P" + h.name + "|" + h.filename.value_or("-") + "|";
  }
  void on_data(std::string_view b) override { log.append(b); }
  void on_part_end() override { log += "E"; }
};

std::string run(std::string_view body, std::size_t chunk, bool& ok) {
  Collect c;
  ok = true;
  try {
    dozor::vault::MultipartParser p("bnd", c);
    for (std::size_t i = 0; i < body.size(); i += chunk) p.feed(body.substr(i, chunk));
    p.finish();
  } catch (const dozor::vault::MultipartError&) {
    ok = false;
  }
  return c.log;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view body(reinterpret_cast<const char*>(data), size);
  bool ok_whole = false, ok_small = false;
  auto whole = run(body, body.size() + 1, ok_whole);
  auto small = run(body, 3, ok_small);
  if (ok_whole != ok_small) std::abort();
  if (ok_whole && whole != small) std::abort();
  (void)dozor::vault::multipart_boundary(body);
  return 0;
}
