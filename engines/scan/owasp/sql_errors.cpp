#include "engines/scan/owasp/sql_errors.hpp"

#include <re2/re2.h>

#include <stdexcept>

#include "engines/audit/data_file.hpp"
#include "engines/limits.hpp"

namespace dozor::owasp {
namespace {

[[noreturn]] void fail(const std::string& what) { throw std::runtime_error("sql error signatures: " + what); }

}  // namespace

SqlErrors SqlErrors::parse(std::string_view json) {
  auto root = audit::parse_data_object(json, "sql error signatures");
  SqlErrors out;
  const auto* version = root.if_contains("version");
  if (!version || !version->is_string() || version->as_string().empty()) fail("'version' must be a non-empty string");
  out.version_ = std::string(version->as_string());
  const auto* list = root.if_contains("dbms");
  if (!list || !list->is_array() || list->as_array().empty()) fail("'dbms' must be a non-empty array");
  std::size_t total = 0;
  for (const auto& item : list->as_array()) {
    const auto* o = item.if_object();
    if (!o) fail("a 'dbms' item is not an object");
    const auto* name = o->if_contains("name");
    if (!name || !name->is_string() || name->as_string().empty()) fail("a 'dbms' item lacks a 'name'");
    Dbms d;
    d.name = std::string(name->as_string());
    const auto* patterns = o->if_contains("patterns");
    if (!patterns || !patterns->is_array() || patterns->as_array().empty())
      fail(d.name + ": 'patterns' must be a non-empty array");
    for (const auto& p : patterns->as_array()) {
      if (!p.is_string() || p.as_string().size() < 4) fail(d.name + ": a pattern must be a string of 4+ characters");
      RE2::Options opt;
      opt.set_log_errors(false);
      opt.set_max_mem(std::int64_t{8} << 20);
      auto re = std::make_shared<const re2::RE2>(std::string(p.as_string()), opt);
      if (!re->ok()) fail(d.name + ": " + re->error());
      d.patterns.push_back(std::move(re));
      if (++total > limits::owasp::kSqlErrorPatterns)
        fail("more than " + std::to_string(limits::owasp::kSqlErrorPatterns) + " patterns");
    }
    out.dbms_.push_back(std::move(d));
  }
  return out;
}

SqlErrors SqlErrors::load(const std::string& audit_data_dir) {
  return parse(audit::read_data_file(audit_data_dir + "/" + kSqlErrorsFile, "sql error signatures"));
}

std::optional<SqlErrorMatch> SqlErrors::match(std::string_view body) const {
  for (const auto& d : dbms_)
    for (const auto& re : d.patterns) {
      re2::StringPiece input(body.data(), body.size()), m;
      if (re->Match(input, 0, input.size(), RE2::UNANCHORED, &m, 1))
        return SqlErrorMatch{d.name, std::string(m.data(), m.size()), static_cast<std::size_t>(m.data() - body.data())};
    }
  return std::nullopt;
}

}  // namespace dozor::owasp
