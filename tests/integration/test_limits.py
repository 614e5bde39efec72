"""Every bound of engines/limits.hpp at N (accepted) and N+1 (refused with a 422 at the right
field), through the real API (docs/limits.md). Config-tunable bounds (services and groups per
user, check slots, body size) are tested where they live: test_services, test_service_edit."""

import secrets
import unittest

import dozor_client as dc

# limits.hpp, mirrored: a change there must change here (and docs/limits.md).
SERVICE_NAME, CHECK_MIN, CHECK_MAX, SLOW_MAX, KEYWORD, STATUS_ITEMS, URL = 255, 10, 604800, 600000, 255, 32, 2083
GROUP_NAME, GROUP_TEXT, SLUG_MIN, SLUG_MAX = 255, 2000, 3, 64
TG_TOKEN, TG_CHAT, SMTP_HOST, SMTP_CRED = 256, 128, 253, 256
CHANNELS_PER_USER, EMAIL_RECIPIENTS = 20, 10
USERNAME, PASSWORD_MAX = 64, 256
KIOSK_MIN, KIOSK_MAX = 5, 86400
JSON_DEPTH = 32


def url_of_length(n):
    base = "http://a.example/"
    return base + "p" * (n - len(base))


def statuses(n):
    return ",".join(str(200 + i) for i in range(n))


class LimitsTest(dc.DozorTestCase):
    @classmethod
    def setUpClass(cls):
        cls.user = dc.create_user("limits")

    @classmethod
    def tearDownClass(cls):
        dc.delete_user(cls.user.id)

    def pair(self, send, field, ok_value, bad_value, loc):
        """send(value) at N must succeed; at N+1 it must be a 422 naming `loc`."""
        with self.subTest(field=field, n="N"):
            r = send(ok_value)
            self.assertEqual(r.status, 200, r)
        with self.subTest(field=field, n="N+1"):
            r = send(bad_value)
            self.assertEqual(r.status, 422, r)
            self.assertIn(loc, [d.get("loc") for d in r.json["detail"]], r)

    def service(self, **fields):
        body = {"name": "limit", "url": "http://127.0.0.1:9/", "is_active": False}
        body.update(fields)
        return dc.post("/api/v1/services", body, token=self.user.token)

    def test_service_fields(self):
        self.pair(lambda v: self.service(name=v), "name", "n" * SERVICE_NAME, "n" * (SERVICE_NAME + 1),
                  ["body", "name"])
        self.pair(lambda v: self.service(check_interval=v), "check_interval min", CHECK_MIN, CHECK_MIN - 1,
                  ["body", "check_interval"])
        self.pair(lambda v: self.service(check_interval=v), "check_interval max", CHECK_MAX, CHECK_MAX + 1,
                  ["body", "check_interval"])
        self.pair(lambda v: self.service(slow_ms=v), "slow_ms", SLOW_MAX, SLOW_MAX + 1, ["body", "slow_ms"])
        self.pair(lambda v: self.service(keyword=v), "keyword", "k" * KEYWORD, "k" * (KEYWORD + 1),
                  ["body", "keyword"])
        self.pair(lambda v: self.service(expected_status=v), "expected_status items", statuses(STATUS_ITEMS),
                  statuses(STATUS_ITEMS + 1), ["body", "expected_status"])
        self.pair(lambda v: self.service(url=v), "url", url_of_length(URL), url_of_length(URL + 1), ["body", "url"])

    def test_group_fields(self):
        def group(**fields):
            body = {"name": "g"}
            body.update(fields)
            return dc.post("/api/v1/groups", body, token=self.user.token)

        self.pair(lambda v: group(name=v), "name", "g" * GROUP_NAME, "g" * (GROUP_NAME + 1), ["body", "name"])
        self.pair(lambda v: group(description=v), "description", "d" * GROUP_TEXT, "d" * (GROUP_TEXT + 1),
                  ["body", "description"])
        self.pair(lambda v: group(status_announcement=v), "announcement", "a" * GROUP_TEXT, "a" * (GROUP_TEXT + 1),
                  ["body", "status_announcement"])
        tag = dc.unique_name("s").lower().replace("_", "")
        self.pair(lambda v: group(status_slug=v), "slug max", (tag + "x" * SLUG_MAX)[:SLUG_MAX],
                  (tag + "y" * SLUG_MAX)[:SLUG_MAX] + "y", ["body", "status_slug"])
        short = dc.unique_name("").lower().replace("_", "")[-SLUG_MIN:]
        self.pair(lambda v: group(status_slug=v), "slug min", short, short[:SLUG_MIN - 1], ["body", "status_slug"])

    def test_channel_fields(self):
        def messenger(**params):
            p = {"token": "123:abc", "chat_id": "42"}
            p.update(params)
            return dc.post("/api/v1/channels", {"type": "messenger", "params": p}, token=self.user.token)

        def email(**params):
            p = {"host": "127.0.0.1", "port": 25, "use_tls": False}
            p.update(params)
            return dc.post("/api/v1/channels", {"type": "email", "params": p}, token=self.user.token)

        self.pair(lambda v: messenger(token=v), "token", "t" * TG_TOKEN, "t" * (TG_TOKEN + 1),
                  ["body", "params", "token"])
        self.pair(lambda v: messenger(chat_id=v), "chat_id", "1" * TG_CHAT, "1" * (TG_CHAT + 1),
                  ["body", "params", "chat_id"])
        self.pair(lambda v: email(host=v), "host", "h" * SMTP_HOST, "h" * (SMTP_HOST + 1), ["body", "params", "host"])
        self.pair(lambda v: email(username=v), "username", "u" * SMTP_CRED, "u" * (SMTP_CRED + 1),
                  ["body", "params", "username"])
        self.pair(lambda v: email(password=v), "password", "p" * SMTP_CRED, "p" * (SMTP_CRED + 1),
                  ["body", "params", "password"])

    def test_channels_per_user_and_recipients_per_email_channel(self):
        owner = dc.create_user("chcap")
        self.addCleanup(dc.delete_user, owner.id)
        # N channels: accepted; the next create (plain or bulk) is a 409 and stores nothing.
        for i in range(CHANNELS_PER_USER):
            r = dc.post("/api/v1/channels", {"type": "email", "enabled": False}, token=owner.token)
            self.assertEqual(r.status, 200, (i, r))
        self.assertDetail(dc.post("/api/v1/channels", {"type": "email"}, token=owner.token), 409)
        self.assertDetail(dc.post("/api/notify/channels/bulk", {"messenger": {"token": "1:a", "chat_id": "1"}},
                                  token=owner.token), 409)
        self.assertEqual(len(dc.get("/api/v1/channels", token=owner.token).json), CHANNELS_PER_USER)
        # The bulk route still updates an existing channel at the bound.
        r = dc.post("/api/notify/channels/bulk", {"email": {"host": "127.0.0.1"}}, token=owner.token)
        self.assertEqual(r.status, 200, r)

        def email(n):
            addrs = ["r%d@example.org" % i for i in range(n)]
            return dc.post("/api/v1/channels", {"type": "email", "enabled": False,
                                                "params": {"host": "127.0.0.1", "to_addrs": addrs}},
                           token=self.user.token)

        self.pair(email, "to_addrs", EMAIL_RECIPIENTS, EMAIL_RECIPIENTS + 1, ["body", "params", "to_addrs"])

    def test_user_fields(self):
        admin = dc.admin_token()
        made = []

        def create(username, password="Zq7!limits-Xw9#"):
            r = dc.post("/api/admin/users", {"username": username, "email": "%s@example.org" % username[:40],
                                             "password": password}, token=admin)
            if r.status == 200:
                made.append(r.json["id"])
            return r

        try:
            base = dc.unique_name("lim").lower().replace("_", "")
            self.pair(lambda v: create(v), "username", (base + "u" * USERNAME)[:USERNAME],
                      (base + "v" * USERNAME)[:USERNAME] + "v", ["body", "username"])
            # Random filler: one letter repeated would be refused by the strength estimate.
            filler = "Xq7!" + secrets.token_urlsafe(PASSWORD_MAX)
            self.pair(lambda v: create(dc.unique_name("pw").lower().replace("_", ""), v), "password",
                      filler[:PASSWORD_MAX], filler[:PASSWORD_MAX + 1], ["body", "password"])
        finally:
            for uid in made:
                dc.delete_user(uid)

    def test_kiosk_interval(self):
        self.pair(lambda v: dc.post("/api/v1/kiosk/start?interval=%d" % v, token=self.user.token), "interval min",
                  KIOSK_MIN, KIOSK_MIN - 1, ["query", "interval"])
        self.pair(lambda v: dc.post("/api/v1/kiosk/start?interval=%d" % v, token=self.user.token), "interval max",
                  KIOSK_MAX, KIOSK_MAX + 1, ["query", "interval"])

    def test_json_depth(self):
        def nested(depth):
            # `name` holds the nesting: the body's own object is depth 1.
            inner = "1"
            for _ in range(depth - 1):
                inner = "[" + inner + "]"
            return ('{"name": %s, "url": "http://127.0.0.1:9/", "is_active": false}' % inner).encode()

        with self.subTest(n="N"):
            r = dc.request("POST", "/api/v1/services", data=nested(JSON_DEPTH), token=self.user.token)
            self.assertEqual(r.status, 422, r)  # parsed: the name is just not a string
            self.assertEqual(r.json["detail"][0]["loc"], ["body", "name"], r)
        with self.subTest(n="N+1"):
            r = dc.request("POST", "/api/v1/services", data=nested(JSON_DEPTH + 1), token=self.user.token)
            self.assertEqual(r.status, 422, r)
            self.assertEqual(r.json["detail"][0]["type"], "json_invalid", r)


if __name__ == "__main__":
    unittest.main()
