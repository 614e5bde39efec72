#pragma once
// Multi-row statements with few distinct texts: a batch of n rows is cut into chunks whose sizes
// are powers of two, so each connection's statement cache holds a handful of shapes, not one
// per batch size.
#include <cstddef>
#include <string>
#include <vector>

namespace dozor::db {

constexpr std::size_t kMaxChunk = 128;

// n = 200 → {128, 64, 8}: descending powers of two at most `max_chunk`, summing to n.
std::vector<std::size_t> chunk_sizes(std::size_t n, std::size_t max_chunk = kMaxChunk);

// `row` repeated n times between separators: repeat_rows("(?, ?)", 2) = "(?, ?), (?, ?)".
std::string repeat_rows(const std::string& row, std::size_t n, const std::string& separator = ", ");

}  // namespace dozor::db
