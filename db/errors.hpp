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
// Every pooled connection stayed busy past the pool's wait deadline: answer 503, retry soon.
struct DbBusy : DbUnavailable {
  using DbUnavailable::DbUnavailable;
};
// A statement ran past the statement timeout and the server aborted it (or stopped answering).
struct DbTimeout : DbUnavailable {
  using DbUnavailable::DbUnavailable;
};
// A UNIQUE constraint refused the write (MySQL error 1062).
struct DuplicateKey : DbError {
  using DbError::DbError;
};
// A foreign key refused the write: the parent row is gone (MySQL error 1452), e.g. a service
// deleted while its check was running.
struct MissingParent : DbError {
  using DbError::DbError;
};

}  // namespace dozor::db
