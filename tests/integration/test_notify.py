"""Notification channels and delivery: CRUD with masked secrets, the bulk and test routes, and
the outbox delivered by dozord to a fake Telegram Bot API and a local SMTP sink (both started
here, on loopback) — exactly once, also after the channel failed for a while."""

import email
import email.policy
import http.server
import json
import os
import signal
import socketserver
import threading
import time
import unittest
import urllib.parse

import dozor_client as dc

TOKEN = "123456:AAbbCCddEEffGGhhIIjj"


class FakeTelegram:
    """Answers POST /bot<token>/sendMessage like the Bot API; `fail_next` answers 500 that many times."""

    def __init__(self, port):
        self.messages, self.fail_next, self.lock = [], 0, threading.Lock()
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                with outer.lock:
                    failing = outer.fail_next > 0
                    outer.fail_next -= failing
                    if not failing:
                        outer.messages.append({"path": self.path, "body": json.loads(body)})
                if failing:
                    answer, code = {"ok": False, "error_code": 500, "description": "Internal Server Error"}, 500
                elif not self.path.startswith("/bot%s/sendMessage" % TOKEN):
                    answer, code = {"ok": False, "error_code": 401, "description": "Unauthorized"}, 401
                else:
                    answer, code = {"ok": True, "result": {"message_id": len(outer.messages)}}, 200
                data = json.dumps(answer).encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        socketserver.TCPServer.allow_reuse_address = True
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()

    def sent(self):
        with self.lock:
            return list(self.messages)


class SmtpSink:
    """A minimal SMTP server that keeps every message it is given."""

    def __init__(self):
        self.messages, self.lock = [], threading.Lock()
        outer = self

        class Handler(socketserver.StreamRequestHandler):
            def reply(self, line):
                self.wfile.write((line + "\r\n").encode())

            def handle(self):
                self.reply("220 sink ESMTP")
                mail = {"from": None, "to": [], "data": b""}
                while True:
                    line = self.rfile.readline()
                    if not line:
                        return
                    cmd = line.decode("latin-1").strip()
                    verb = cmd.split(" ", 1)[0].upper()
                    if verb in ("EHLO", "HELO"):
                        self.reply("250 sink")
                    elif verb == "MAIL":
                        mail["from"] = cmd
                        self.reply("250 ok")
                    elif verb == "RCPT":
                        mail["to"].append(cmd)
                        self.reply("250 ok")
                    elif verb == "DATA":
                        self.reply("354 go on")
                        data = b""
                        while not data.endswith(b"\r\n.\r\n"):
                            chunk = self.rfile.readline()
                            if not chunk:
                                return
                            data += chunk
                        mail["data"] = data[:-5]
                        with outer.lock:
                            outer.messages.append(dict(mail))
                        self.reply("250 queued")
                    elif verb == "QUIT":
                        self.reply("221 bye")
                        return
                    else:
                        self.reply("250 ok")

        self.server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


class NotifyTest(dc.DozorTestCase):
    @classmethod
    def setUpClass(cls):
        base = dc.config_value("notify", "telegram_api_base", "")
        port = urllib.parse.urlsplit(base).port
        if not base.startswith("http://127.0.0.1:") or not port:
            raise unittest.SkipTest("the stack's notify.telegram_api_base is not a local fake (%r)" % base)
        cls.telegram = FakeTelegram(port)
        cls.smtp = SmtpSink()

    @classmethod
    def tearDownClass(cls):
        cls.telegram.close()
        cls.smtp.close()

    def messenger(self, user, **extra):
        body = {"type": "messenger", "params": dict({"token": TOKEN, "chat_id": "4242"}, **extra)}
        r = dc.post("/api/v1/channels", body, token=user.token)
        self.assertEqual(r.status, 200, r)
        return r.json

    def mailbox(self, user):
        body = {"type": "email", "params": {"host": "127.0.0.1", "port": self.smtp.port, "use_tls": False,
                                             "username": "ops", "password": "smtp-secret-pw",
                                             "from_addr": "dozor@example.org", "to_addrs": ["oncall@example.org"]}}
        r = dc.post("/api/v1/channels", body, token=user.token)
        self.assertEqual(r.status, 200, r)
        return r.json

    def enqueue(self, user, channel_id, key, payload):
        dc.db_query("INSERT INTO notification_outbox (channel_id, user_id, event_key, kind, payload)"
                    " VALUES (%d, %d, '%s', 'service_down', '%s')"
                    % (channel_id, user.id, key, json.dumps(payload).replace("'", "''")))

    # ------------------------------------------------------------------ channels

    def test_channel_secrets_are_masked_and_a_masked_echo_keeps_them(self):
        user = self.new_user("ch")
        ch = self.messenger(user)
        self.assertEqual(ch["params"]["token"], "****" + TOKEN[-2:])
        self.assertNotIn(TOKEN, json.dumps(dc.get("/api/v1/channels", token=user.token).json))
        # A PUT that sends the mask back keeps the stored token: the next test message still works.
        r = dc.put("/api/v1/channels/%d" % ch["id"], {"type": "messenger", "params": ch["params"]}, token=user.token)
        self.assertEqual(r.status, 200, r)
        stored = dc.db_query("SELECT JSON_VALUE(params, '$.token') FROM channels WHERE id = %d" % ch["id"])
        self.assertEqual(stored[0][0], TOKEN)
        other = self.new_user("ch2")
        self.assertDetail(dc.put("/api/v1/channels/%d" % ch["id"], {"type": "messenger", "params": ch["params"]},
                                 token=other.token), 404)
        self.assertDetail(dc.delete("/api/v1/channels/%d" % ch["id"], token=other.token), 404)
        self.assertEqual(dc.delete("/api/v1/channels/%d" % ch["id"], token=user.token).status, 200)
        self.assertEqual(dc.get("/api/v1/channels", token=user.token).json, [])

    def test_channel_validation(self):
        user = self.new_user("chv")
        cases = [
            ({"type": "pager"}, ("literal_error", ["body", "type"])),
            ({"type": "messenger", "params": {"chat_id": "1"}}, ("missing", ["body", "params", "token"])),
            ({"type": "messenger", "params": {"token": "t", "chat_id": "1", "proxy": "ftp://p.example"}},
             ("url_scheme", ["body", "params", "proxy"])),
            ({"type": "email", "params": {"host": "h.example", "to_addrs": ["not-an-address"]}},
             ("value_error", ["body", "params", "to_addrs", 0])),
            ({"type": "email", "params": {"host": "h.example", "port": 70000}},
             ("less_than_equal", ["body", "params", "port"])),
        ]
        for body, expected in cases:
            with self.subTest(body=body):
                self.assertValidation(dc.post("/api/v1/channels", body, token=user.token), [expected])
        self.assertUnauthenticated(dc.get("/api/v1/channels"))
        self.assertUnauthenticated(dc.post("/api/notify/test"))

    def test_bulk_updates_the_channel_of_a_type_or_creates_it(self):
        user = self.new_user("bulk")
        for prefix in ("/api/v1", "/api"):
            r = dc.post(prefix + "/notify/channels/bulk",
                        {"messenger": {"token": TOKEN, "chat_id": "1"}, "email": None}, token=user.token)
            self.assertEqual(r.status, 200, r)
            self.assertIsNone(r.json["email"])
            self.assertEqual(r.json["messenger"]["params"]["chat_id"], "1")
        listed = dc.get("/api/v1/channels", token=user.token).json
        self.assertEqual([c["type"] for c in listed], ["messenger"])  # updated, not duplicated

    # ------------------------------------------------------------------ sending

    def test_test_notification_reaches_every_enabled_channel_with_a_result_each(self):
        user = self.new_user("tst")
        tg = self.messenger(user)
        mail = self.mailbox(user)
        broken = dc.post("/api/v1/channels", {"type": "email", "params": {
            "host": "127.0.0.1", "port": dc.closed_port(), "use_tls": False, "from_addr": "a@example.org",
            "to_addrs": ["b@example.org"]}}, token=user.token).json
        before_tg, before_mail = len(self.telegram.sent()), len(self.smtp.messages)
        r = dc.post("/api/notify/test", token=user.token)
        self.assertEqual(r.status, 200, r)
        by_id = {x["channel_id"]: x for x in r.json["results"]}
        self.assertEqual(by_id[tg["id"]]["status"], "ok", r)
        self.assertEqual(by_id[mail["id"]]["status"], "ok", r)
        self.assertEqual(by_id[broken["id"]]["status"], "error", r)
        self.assertTrue(by_id[broken["id"]]["error"])
        self.assertNotIn("smtp-secret-pw", r.text)
        self.assertEqual(len(self.telegram.sent()), before_tg + 1)
        sent = self.telegram.sent()[-1]["body"]
        self.assertEqual((sent["chat_id"], sent["parse_mode"]), ("4242", "HTML"))
        self.assertEqual(len(self.smtp.messages), before_mail + 1)

    def test_email_is_a_well_formed_message(self):
        user = self.new_user("mail")
        self.mailbox(user)
        before = len(self.smtp.messages)
        self.assertEqual(dc.post("/api/v1/notify/test", token=user.token).status, 200)
        raw = self.smtp.messages[before]
        self.assertIn("<dozor@example.org>", raw["from"])
        self.assertIn("<oncall@example.org>", raw["to"][0])
        msg = email.message_from_bytes(raw["data"], policy=email.policy.default)
        for header in ("Date", "Message-ID", "From", "To", "Subject"):
            self.assertTrue(msg[header], header)
        self.assertIn("test notification", str(msg["Subject"]))
        self.assertEqual(msg.get_content_type(), "multipart/alternative")
        parts = {p.get_content_type(): p.get_content() for p in msg.iter_parts()}
        self.assertEqual(set(parts), {"text/plain", "text/html"})
        self.assertIn("This channel works", parts["text/plain"])

    def test_outbox_is_delivered_once_also_after_the_channel_failed(self):
        user = self.new_user("obx")
        tg = self.messenger(user)
        payload = {"service_id": 1, "incident_id": 7, "up": False, "service_name": "Shop <main>",
                   "url": "https://shop.example/", "error": "HTTP status 500", "outage_seconds": 0,
                   "at": "2026-11-23T06:00:00Z"}
        self.telegram.fail_next = 1  # the first attempt fails; the retry (15 s later) succeeds
        before = len(self.telegram.sent())
        self.enqueue(user, tg["id"], "incident:7:down", payload)
        ok = dc.wait_until(lambda: len(self.telegram.sent()) > before, 45, 0.5)
        self.assertTrue(ok, dc.db_query("SELECT state, attempts, last_error FROM notification_outbox"
                                        " WHERE user_id = %d" % user.id))
        time.sleep(3)  # nothing more may come
        mine = [m for m in self.telegram.sent()[before:] if "Shop" in m["body"]["text"]]
        self.assertEqual(len(mine), 1, mine)
        self.assertIn("Shop &lt;main&gt;", mine[0]["body"]["text"])  # escaped for HTML mode
        self.assertIn("HTTP status 500", mine[0]["body"]["text"])
        row = dc.db_query("SELECT state, attempts FROM notification_outbox WHERE user_id = %d" % user.id)
        self.assertEqual(row, [["sent", "2"]])


    def test_an_outage_and_its_recovery_are_each_told_once_even_if_dozord_is_killed(self):
        user = self.new_user("e2e")
        self.messenger(user)
        state = {"code": 200}
        with dc.FixtureServer({"/site": lambda h: (state["code"], {}, "x")}) as fx:
            svc = self.new_service(user, name="Flip site", url=fx.url("/site"), check_interval=10)
            sid = svc["id"]
            q = "SELECT state FROM service_state WHERE service_id = %d" % sid
            self.assertTrue(dc.wait_until(lambda: dc.db_query(q) == [["up"]], 30, 0.5))
            state["code"] = 500
            self.assertTrue(dc.wait_until(lambda: dc.db_query(q) == [["down"]], 40, 0.5))
            # SIGKILL dozord during the outage; the restarted one must not tell it again.
            pid = int((dc.STATE_DIR / "run" / "dozord.pid").read_text())
            os.kill(pid, signal.SIGKILL)
            self.addCleanup(lambda: dc.stackctl("start-dozord"))
            dc.stackctl("start-dozord")
            time.sleep(15)  # the new dozord checks the still-failing site again (lease expiry aside)
            state["code"] = 200
            self.assertTrue(dc.wait_until(lambda: dc.db_query(q) == [["up"]], 60, 0.5))
            self.assertTrue(dc.wait_until(
                lambda: len([m for m in self.telegram.sent() if "Flip site" in m["body"]["text"]]) >= 2, 30, 0.5))
            time.sleep(2)
        mine = [m["body"]["text"] for m in self.telegram.sent() if "Flip site" in m["body"]["text"]]
        self.assertEqual(len(mine), 2, mine)  # one down, one up
        self.assertIn("DOWN", mine[0])
        self.assertIn("HTTP status 500", mine[0])
        self.assertIn("UP again", mine[1])
        self.assertIn("Outage:", mine[1])

if __name__ == "__main__":
    unittest.main()
