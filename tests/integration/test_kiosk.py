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
        self.assertEqual(r.json["current_service"]["id"], ids[0])
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
