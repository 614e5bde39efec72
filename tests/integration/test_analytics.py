"""Analytics, history and incidents on a known, seeded history: exact time-weighted uptime,
average and p95 from the rollups, incident counts — and the answers of every check feed them."""

import unittest

import dozor_client as dc


class AnalyticsTest(dc.DozorTestCase):
    def seed(self, user):
        svc = self.new_service(user, url="http://127.0.0.1:9/", is_active=False)
        sid = svc["id"]
        dc.db_query("UPDATE services SET created_at = NOW(3) - INTERVAL 60 DAY WHERE id = %d" % sid)
        # One hour down, ended two hours ago: counted as an incident by its start.
        dc.db_query("INSERT INTO incidents (service_id, started_at, ended_at, cause) VALUES"
                    " (%d, NOW(3) - INTERVAL 3 HOUR, NOW(3) - INTERVAL 2 HOUR, 'HTTP status 500')" % sid)
        # 100 timed checks in the current hour: 95 at 20 ms, 5 at 1800 ms (histogram buckets 20
        # and 124 of engines/monitor/rollup: exact below 32 ms); half an hour watched, all up.
        hour = "DATE_FORMAT(NOW() - INTERVAL %d HOUR, '%%Y-%%m-%%d %%H:00:00')"
        dc.db_query("INSERT INTO rollup_hourly (service_id, bucket_start, checks, failures, rt_count, rt_sum_ms,"
                    " rt_max_ms, rt_p95_ms, rt_hist, observed_ms, down_ms) VALUES (%d, %s,"
                    " 100, 5, 100, 10900, 1800, 20, '20:95,124:5', 1800000, 0)" % (sid, hour % 0))
        # Watched time only (the uptime's figures): an hour all down three hours ago, an hour up
        # two days ago (in 7 d, not in 24 h).
        for ago, observed, down in ((3, 3600000, 3600000), (48, 3600000, 0)):
            dc.db_query("INSERT INTO rollup_hourly (service_id, bucket_start, rt_hist, observed_ms, down_ms)"
                        " VALUES (%d, %s, '', %d, %d)" % (sid, hour % ago, observed, down))
        # Daily rows: today, ten days ago (in 30 d) and forty days ago (outside).
        for ago, observed, down in ((0, 5400000, 3600000), (10, 86400000, 0), (40, 86400000, 86400000)):
            dc.db_query("INSERT INTO rollup_daily (service_id, bucket_start, rt_hist, observed_ms, down_ms)"
                        " VALUES (%d, CURRENT_DATE() - INTERVAL %d DAY, '', %d, %d)" % (sid, ago, observed, down))
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
            # One definition (docs/monitoring.md "Uptime"): watched time not down, floored to
            # three decimals — 24 h: 1.5 h watched, 1 h down; 7 d: 2.5 h watched, 1 h down;
            # 30 d (daily rows): 25.5 h watched, 1 h down.
            self.assertEqual(row["uptime_24h"], 33.333)
            self.assertEqual(row["uptime_7d"], 60.0)
            self.assertEqual(row["uptime_30d"], 96.078)
            self.assertEqual(row["avg_response_ms_24h"], 109)
            self.assertEqual(row["p95_response_ms_24h"], 20)
            self.assertEqual((row["incidents_24h"], row["incidents_7d"]), (1, 1))
            self.assertEqual(s["incidents"], {"24h": 1, "7d": 1})
            self.assertEqual(s["uptime"], {"24h": 33.333, "7d": 60.0, "30d": 96.078})
            self.assertEqual(s["response_time_24h"], {"avg_ms": 109, "p95_ms": 20})

    def test_a_service_nobody_watched_has_no_uptime_not_100(self):
        user = self.new_user("an0")
        self.new_service(user, url="http://127.0.0.1:9/", is_active=False)
        row = dc.get("/api/v1/analytics/summary", token=user.token).json["services"][0]
        self.assertEqual((row["uptime_24h"], row["uptime_7d"], row["uptime_30d"]), (None, None, None))

    def test_history_and_incidents(self):
        user = self.new_user("hist")
        sid = self.seed(user)
        r = dc.get("/api/v1/services/%d/history?window=7d" % sid, token=user.token)
        self.assertEqual(r.status, 200, r)
        self.assertEqual(r.json["source"], "hourly")
        self.assertEqual(len(r.json["points"]), 3)
        p = r.json["points"][-1]
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

    def test_history_spans_its_window_and_its_uptime_is_the_summarys(self):
        user = self.new_user("histw")
        sid = self.seed(user)
        summary = dc.get("/api/v1/analytics/summary", token=user.token).json["services"][0]
        for window, seconds, bars, field in (("24h", 86400, 2, "uptime_24h"), ("7d", 7 * 86400, 3, "uptime_7d"),
                                             ("30d", 30 * 86400, 2, "uptime_30d")):
            with self.subTest(window=window):
                h = dc.get("/api/v1/services/%d/history?window=%s" % (sid, window), token=user.token).json
                span = (dc.parse_datetime(h["to"]) - dc.parse_datetime(h["from"])).total_seconds()
                self.assertEqual(span, seconds, h)
                self.assertEqual(h["uptime"], summary[field])
                self.assertEqual(len(h["uptime_buckets"]), bars, h["uptime_buckets"])
                for b in h["uptime_buckets"]:
                    self.assertEqual(set(b), {"t", "observed_ms", "down_ms", "uptime"})
        h = dc.get("/api/v1/services/%d/history?window=24h" % sid, token=user.token).json
        self.assertEqual([b["uptime"] for b in h["uptime_buckets"]], [0.0, 100.0])  # oldest first

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
