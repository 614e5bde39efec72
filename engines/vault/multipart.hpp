#pragma once
// A streaming multipart/form-data parser (RFC 7578): fed the body in chunks of any size, it
// calls its sink for each part's headers, data and end, holding at most one part header block
// (limits::kVaultPartHeaderBytes) plus one boundary of the body in memory whatever the size of
// the files — uploads go to disk as they arrive.
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace dozor::vault {

struct MultipartError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct PartHeaders {
  std::string name;                     // the form field
  std::optional<std::string> filename;  // set for file parts (filename*=UTF-8'' preferred)
  std::string content_type;
};

class MultipartSink {
 public:
  virtual ~MultipartSink() = default;
  virtual void on_part(const PartHeaders& h) = 0;
  virtual void on_data(std::string_view bytes) = 0;
  virtual void on_part_end() = 0;
};

// The boundary parameter of a multipart/form-data Content-Type; nullopt when the type is another
// or the boundary is missing or invalid (1–70 characters, RFC 2046).
std::optional<std::string> multipart_boundary(std::string_view content_type);

class MultipartParser {
 public:
  MultipartParser(std::string boundary, MultipartSink& sink);
  // Throws MultipartError on malformed input (and whatever the sink throws).
  void feed(std::string_view chunk);
  // The body ended: throws MultipartError unless the closing boundary was seen.
  void finish();
  bool done() const { return state_ == State::Done; }

 private:
  enum class State { Preamble, AfterBoundary, Headers, Body, Done };
  void parse_headers(std::string_view block);

  std::string delimiter_;  // "\r\n--" + boundary
  MultipartSink& sink_;
  State state_ = State::Preamble;
  std::string buf_;
  std::size_t parts_ = 0;
};

}  // namespace dozor::vault
