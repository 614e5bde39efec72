#include "db/oast_repo.hpp"

#include <cppconn/prepared_statement.h>
#include <cppconn/resultset.h>

#include <boost/json/object.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

namespace dozor::db::oast {

void insert_probes(Connection& c, const std::vector<dozor::oast::Probe>& probes, int ttl_seconds) {
  if (probes.empty()) return;
  c.transaction([&] {
    for (const auto& p : probes) {
      auto& st = c.prepare(
          "INSERT INTO oast_probes (token, marker, kind, url, method, param, payload, created_at, expires_at)"
          " VALUES (?, ?, ?, ?, ?, ?, ?, NOW(3), NOW(3) + INTERVAL ? SECOND)");
      st.setString(1, p.token);
      st.setString(2, p.marker);
      st.setString(3, p.kind);
      st.setString(4, dozor::oast::printable(p.url, 2083));
      st.setString(5, p.method);
      st.setString(6, dozor::oast::printable(p.param, 255));
      st.setString(7, dozor::oast::printable(p.payload, 2048));
      st.setInt(8, ttl_seconds);
      st.executeUpdate();
    }
  });
}

std::optional<Live> find_live(Connection& c, const std::string& token, int max_hits) {
  auto& st = c.prepare("SELECT marker, hits FROM oast_probes WHERE token = ? AND expires_at > NOW(3)");
  st.setString(1, token);
  std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
  if (!rs->next()) return std::nullopt;
  return Live{get_string(*rs, 1), get_int(*rs, 2) < max_hits};
}

bool record_hit(Connection& c, const dozor::oast::Hit& hit, int max_hits) {
  bool stored = false;
  c.transaction([&] {
    auto& up = c.prepare("UPDATE oast_probes SET hits = hits + 1 WHERE token = ? AND expires_at > NOW(3) AND hits < ?");
    up.setString(1, hit.token);
    up.setInt(2, max_hits);
    if (up.executeUpdate() != 1) return;
    boost::json::object headers;
    for (const auto& [name, value] : hit.headers) headers[name] = value;
    auto& ins = c.prepare(
        "INSERT INTO oast_hits (token, received_at, source, method, path, headers, body_excerpt)"
        " VALUES (?, NOW(3), ?, ?, ?, ?, ?)");
    ins.setString(1, hit.token);
    ins.setString(2, hit.source);
    ins.setString(3, hit.method);
    ins.setString(4, hit.path);
    ins.setString(5, boost::json::serialize(headers));
    ins.setString(6, hit.body_excerpt);
    ins.executeUpdate();
    stored = true;
  });
  return stored;
}

std::vector<dozor::oast::Hit> hits_of(Connection& c, const std::vector<std::string>& tokens) {
  // Fixed-size IN lists (padded with the chunk's first token): one cached statement, whatever the count.
  constexpr std::size_t kChunk = 32;
  std::string sql =
      "SELECT token, CONCAT(LEFT(DATE_FORMAT(received_at, '%Y-%m-%dT%H:%i:%s.%f'), 23), 'Z'), source, method, path,"
      " headers, body_excerpt FROM oast_hits WHERE token IN (?";
  for (std::size_t i = 1; i < kChunk; ++i) sql += ", ?";
  sql += ") ORDER BY id";
  std::vector<dozor::oast::Hit> out;
  for (std::size_t from = 0; from < tokens.size(); from += kChunk) {
    auto& st = c.prepare(sql);
    for (std::size_t i = 0; i < kChunk; ++i)
      st.setString(static_cast<unsigned>(i + 1), from + i < tokens.size() ? tokens[from + i] : tokens[from]);
    std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
    while (rs->next()) {
      dozor::oast::Hit h;
      h.token = get_string(*rs, 1);
      h.received_at = get_string(*rs, 2);
      h.source = get_string(*rs, 3);
      h.method = get_string(*rs, 4);
      h.path = get_string(*rs, 5);
      boost::system::error_code ec;
      auto headers = boost::json::parse(get_string(*rs, 6), ec);
      if (!ec && headers.is_object())
        for (const auto& [name, value] : headers.as_object())
          if (value.is_string()) h.headers.emplace_back(std::string(name), std::string(value.as_string()));
      h.body_excerpt = get_string(*rs, 7);
      out.push_back(std::move(h));
    }
  }
  return out;
}

int purge(Connection& c, int days, int chunk) {
  auto& st = c.prepare("DELETE FROM oast_probes WHERE expires_at < NOW(3) - INTERVAL ? DAY LIMIT ?");
  st.setInt(1, days);
  st.setInt(2, chunk);
  return st.executeUpdate();
}

}  // namespace dozor::db::oast
