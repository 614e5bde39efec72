#pragma once
#include <stdexcept>

namespace dozor::db {

// Any database failure that is not one of the cases below.
struct DbError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// The server cannot be reached (down, restarting, network): answer 503, retry later.
struct DbUnavailable : DbError {
  using DbError::DbError;
};
// A UNIQUE constraint refused the write (MySQL error 1062).
struct DuplicateKey : DbError {
  using DbError::DbError;
};

}  // namespace dozor::db
