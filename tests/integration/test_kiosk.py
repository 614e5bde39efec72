"""Kiosk state: derived from start time, interval and manual steps; one state per user behind
/api/v1, /api and /api/security; the interval validated."""

import time
import unittest

import dozor_client as dc

PREFIXES = ("/api/v1", "/api", "/api/security")


class KioskTest(dc.DozorTestCase):
    def test_start_next_previous_stop_and_the_shared_state(self):
        user = self.new_user("kiosk")
        ids = [self.new_service(user, name="site%d" % i, url="http://127.0.0.1:9/%d" % i, is_active=True)["id"]
               for i in range(3)]
        r = dc.get("/api/v1/kiosk/state", token=user.token)
        self.assertEqual(r.status, 200, r)
        self.assertEqual((r.json["running"], r.json["count"], r.json["current_index"]), (False, 3, 0))
        # The first site of the rotation (by id, unless dozord already saw one of them fail).
        self.assertEqual(sorted(r.json["order"]), ids)
        self.assertEqual(r.json["current_service"]["id"], r.json["order"][0])
        self.assertIsNone(r.json["next_switch_at"])

        r = dc.post("/api/kiosk/start?interval=5", token=user.token)
        self.assertEqual(r.status, 200, r)
        self.assertEqual((r.json["running"], r.json["interval"]), (True, 5))
        self.assertTrue(r.json["next_switch_at"])
        # Every prefix sees the same state.
        for prefix in PREFIXES:
            s = dc.get(prefix + "/kiosk/state", token=user.token).json
            self.assertEqual((s["running"], s["interval"]), (True, 5), prefix)
        # It advances by itself: after one interval the next site is shown.
        first = dc.get("/api/v1/kiosk/state", token=user.token).json["current_index"]
        time.sleep(5.5)
        later = dc.get("/api/security/kiosk/state", token=user.token).json["current_index"]
        self.assertEqual(later, (first + 1) % 3)

        nxt = dc.post("/api/v1/kiosk/next", token=user.token).json["current_index"]
        self.assertEqual(nxt, (later + 1) % 3)
        prev = dc.post("/api/security/kiosk/previous", token=user.token).json["current_index"]
        self.assertEqual(prev, later)
        stopped = dc.post("/api/kiosk/stop", token=user.token).json
        self.assertFalse(stopped["running"])
        time.sleep(5.5)
        self.assertEqual(dc.get("/api/v1/kiosk/state", token=user.token).json["current_index"],
                         stopped["current_index"])

    def test_the_rotation_starts_with_problems_and_says_its_order(self):
        user = self.new_user("kiosko")
        ids = [self.new_service(user, name="site%d" % i, url="http://127.0.0.1:9/%d" % i, is_active=True)["id"]
               for i in range(4)]
        # Nobody checks them during the test (due tomorrow); ids[2] is down for an hour, ids[3]
        # for two hours, ids[1] failed once (pending), ids[0] is up.
        for sid, state, since, available in ((ids[0], "up", "NULL", 1), (ids[1], "up", "NULL", 0),
                                             (ids[2], "down", "NOW(3) - INTERVAL 1 HOUR", 0),
                                             (ids[3], "down", "NOW(3) - INTERVAL 2 HOUR", 0)):
            dc.db_query(
                "INSERT INTO service_state (service_id, state, down_since, next_check_at, last_checked_at,"
                " last_available) VALUES ({s}, '{st}', {d}, NOW(3) + INTERVAL 1 DAY, NOW(3), {a})"
                " ON DUPLICATE KEY UPDATE state = '{st}', down_since = {d}, next_check_at = NOW(3) + INTERVAL 1 DAY,"
                " last_checked_at = NOW(3), last_available = {a}".format(s=sid, st=state, d=since, a=available))
        state = dc.get("/api/v1/kiosk/state", token=user.token).json
        self.assertEqual(state["order"], [ids[3], ids[2], ids[1], ids[0]])
        self.assertEqual(state["current_service"]["id"], ids[3], "a new rotation starts with the longest outage")
        listed = {s["id"]: s for s in dc.get("/api/v1/services", token=user.token).json}
        self.assertEqual([listed[i]["pending"] for i in ids], [False, True, False, False])

    def test_interval_bounds_and_default(self):
        user = self.new_user("kiosk2")
        self.assertEqual(dc.post("/api/v1/kiosk/start", token=user.token).json["interval"], 30)
        self.assertEqual(dc.post("/api/v1/kiosk/start?interval=5", token=user.token).status, 200)  # N
        self.assertValidation(dc.post("/api/v1/kiosk/start?interval=4", token=user.token),
                              [("greater_than_equal", ["query", "interval"])])  # N - 1
        self.assertValidation(dc.post("/api/v1/kiosk/start?interval=x", token=user.token),
                              [("int_parsing", ["query", "interval"])])
        self.assertUnauthenticated(dc.get("/api/kiosk/state"))

    def test_users_have_their_own_kiosk(self):
        a, b = self.new_user("ka"), self.new_user("kb")
        dc.post("/api/v1/kiosk/start?interval=60", token=a.token)
        self.assertFalse(dc.get("/api/v1/kiosk/state", token=b.token).json["running"])
        self.assertEqual(dc.get("/api/v1/kiosk/state", token=b.token).json["count"], 0)


if __name__ == "__main__":
    unittest.main()
