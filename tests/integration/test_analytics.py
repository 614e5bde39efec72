"""Analytics, history and incidents on a known, seeded history: exact time-weighted uptime,
average and p95 from the rollups, incident counts — and the answers of every check feed them."""

import unittest

import dozor_client as dc


class AnalyticsTest(dc.DozorTestCase):
    def seed(self, user):
        svc = self.new_service(user, url="http://127.0.0.1:9/", is_active=False)
        sid = svc["id"]
        dc.db_query("UPDATE services SET created_at = NOW(3) - INTERVAL 2 DAY WHERE id = %d" % sid)
        # One hour down, ended two hours ago; one older incident eight days ago (outside 7 d).
        dc.db_query("INSERT INTO incidents (service_id, started_at, ended_at, cause) VALUES"
                    " (%d, NOW(3) - INTERVAL 3 HOUR, NOW(3) - INTERVAL 2 HOUR, 'HTTP status 500')" % sid)
        # 100 timed checks in the current hour: 95 at 20 ms, 5 at 1800 ms (histogram buckets 20
        # and 124 of engines/monitor/rollup: exact below 32 ms).
        dc.db_query("INSERT INTO rollup_hourly (service_id, bucket_start, checks, failures, rt_count, rt_sum_ms,"
                    " rt_max_ms, rt_p95_ms, rt_hist) VALUES (%d, DATE_FORMAT(NOW(), '%%Y-%%m-%%d %%H:00:00'),"
                    " 100, 5, 100, 10900, 1800, 20, '20:95,124:5')" % sid)
        return sid

    def test_summary_figures_on_a_known_history(self):
        user = self.new_user("an")
        sid = self.seed(user)
        for prefix in ("/api/v1", "/api"):
            r = dc.get(prefix + "/analytics/summary", token=user.token)
            self.assertEqual(r.status, 200, r)
            s = r.json
            self.assertEqual(s["totals"], {"services": 1, "active": 0, "up": 0, "down": 0, "unknown": 1})
            row = s["services"][0]
            self.assertEqual(row["id"], sid)
            self.assertAlmostEqual(row["uptime_24h"], 100 * (1 - 3600 / 86400), places=2)
            # Created two days ago: 7 and 30 days count only the monitored two days.
            self.assertAlmostEqual(row["uptime_7d"], 100 * (1 - 3600 / (2 * 86400)), places=2)
            self.assertAlmostEqual(row["uptime_30d"], row["uptime_7d"], places=3)
            self.assertEqual(row["avg_response_ms_24h"], 109)
            self.assertEqual(row["p95_response_ms_24h"], 20)
            self.assertEqual((row["incidents_24h"], row["incidents_7d"]), (1, 1))
            self.assertEqual(s["incidents"], {"24h": 1, "7d": 1})
            self.assertAlmostEqual(s["uptime"]["24h"], row["uptime_24h"], places=3)
            self.assertEqual(s["response_time_24h"], {"avg_ms": 109, "p95_ms": 20})

    def test_history_and_incidents(self):
        user = self.new_user("hist")
        sid = self.seed(user)
        r = dc.get("/api/v1/services/%d/history?window=7d" % sid, token=user.token)
        self.assertEqual(r.status, 200, r)
        self.assertEqual(r.json["source"], "hourly")
        self.assertEqual(len(r.json["points"]), 1)
        p = r.json["points"][0]
        self.assertEqual((p["checks"], p["failures"], p["avg_ms"], p["p95_ms"]), (100, 5, 109, 20))
        self.assertValidationLoc(dc.get("/api/v1/services/%d/history?window=1y" % sid, token=user.token),
                                 ["query", "window"])
        r = dc.get("/api/services/%d/incidents" % sid, token=user.token)
        self.assertEqual(r.status, 200, r)
        self.assertEqual(len(r.json), 1)
        self.assertEqual(r.json[0]["duration_seconds"], 3600)
        self.assertEqual(r.json[0]["cause"], "HTTP status 500")
        other = self.new_user("hist2")
        self.assertDetail(dc.get("/api/v1/services/%d/history" % sid, token=other.token), 404)
        self.assertDetail(dc.get("/api/v1/services/%d/incidents" % sid, token=other.token), 404)

    def test_a_check_feeds_the_rollups(self):
        user = self.new_user("feed")
        with dc.FixtureServer({"/ok": (200, {}, "ok")}) as fx:
            svc = self.new_service(user, url=fx.url("/ok"), is_active=False)
            for _ in range(3):
                self.assertEqual(dc.post("/api/v1/services/%d/check" % svc["id"], token=user.token).status, 200)
        r = dc.get("/api/v1/services/%d/history?window=30d" % svc["id"], token=user.token).json
        self.assertEqual(sum(p["checks"] for p in r["points"]), 3)
        day = dc.get("/api/v1/services/%d/history?window=365d" % svc["id"], token=user.token).json
        self.assertEqual(day["source"], "daily")
        self.assertEqual(sum(p["checks"] for p in day["points"]), 3)
        raw = dc.get("/api/v1/services/%d/history" % svc["id"], token=user.token).json
        self.assertEqual(len(raw["points"]), 3)


if __name__ == "__main__":
    unittest.main()
