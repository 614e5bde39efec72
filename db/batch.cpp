#include "db/batch.hpp"

#include <algorithm>
#include <bit>

namespace dozor::db {

std::vector<std::size_t> chunk_sizes(std::size_t n, std::size_t max_chunk) {
  std::vector<std::size_t> out;
  max_chunk = std::bit_floor(std::max<std::size_t>(max_chunk, 1));
  while (n >= max_chunk) {
    out.push_back(max_chunk);
    n -= max_chunk;
  }
  for (std::size_t size = max_chunk / 2; size > 0; size /= 2) {
    if (n >= size) {
      out.push_back(size);
      n -= size;
    }
  }
  return out;
}

std::string repeat_rows(const std::string& row, std::size_t n, const std::string& separator) {
  std::string out;
  out.reserve((row.size() + separator.size()) * n);
  for (std::size_t i = 0; i < n; ++i) {
    if (i) out += separator;
    out += row;
  }
  return out;
}

}  // namespace dozor::db
