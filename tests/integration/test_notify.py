"""Notification channels and delivery: CRUD with masked secrets, the bulk and test routes, and
the outbox delivered by dozord to a fake Telegram Bot API and a local SMTP sink (both started
here, on loopback) — exactly once, also after the channel failed for a while."""

import email
import email.policy
import http.server
import json
import os
import signal
import socket
import socketserver
import threading
import time
import unittest
import urllib.parse

import dozor_client as dc

TOKEN = "123456:AAbbCCddEEffGGhhIIjj"
TEST_DEADLINE = 10  # limits::kNotifyTestSeconds
INJECTION = "ops\r\nRCPT TO:<victim@example.org>"


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
        self.messages, self.commands, self.lock = [], [], threading.Lock()
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
                    with outer.lock:
                        outer.commands.append(cmd)  # every command line, whatever came of it
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


class BlackHole:
    """A TCP server that accepts connections and never answers (an SMTP server or a proxy that hangs)."""

    def __init__(self):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.port = self.sock.getsockname()[1]
        self.held, self.stop = [], threading.Event()
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self):
        self.sock.settimeout(0.2)
        while not self.stop.is_set():
            try:
                conn, _ = self.sock.accept()
                self.held.append(conn)
            except (socket.timeout, OSError):
                continue

    def close(self):
        self.stop.set()
        for c in self.held:
            c.close()
        self.sock.close()


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

    # ------------------------------------------------------------------ issue 26: channel fields

    def test_control_characters_in_any_channel_field_are_refused_at_create_update_and_bulk(self):
        user = self.new_user("ctl")
        good_tg = {"token": TOKEN, "chat_id": "4242"}
        good_mail = {"host": "127.0.0.1", "port": self.smtp.port, "use_tls": False, "from_addr": "a@example.org",
                     "to_addrs": ["b@example.org"]}
        cases = [
            ("messenger", "token", "123:abc\r\nX"),
            ("messenger", "chat_id", "42\r\n"),
            ("messenger", "proxy", "http://127.0.0.1:3128\r\nX-Evil: 1"),
            ("email", "host", "127.0.0.1\r\nRCPT TO:<victim@example.org>"),
            ("email", "username", INJECTION),
            ("email", "password", "pw\r\nRCPT TO:<victim@example.org>"),
            ("email", "from_addr", "a@example.org\r\nRCPT TO:<victim@example.org>"),
        ]
        tg = self.messenger(user)
        mail = self.mailbox(user)
        for kind, field, bad in cases:
            params = dict(good_tg if kind == "messenger" else good_mail, **{field: bad})
            loc = ["body", "params", field]
            with self.subTest(route="create", field=field):
                r = dc.post("/api/v1/channels", {"type": kind, "params": params}, token=user.token)
                self.assertValidationLoc(r, loc)
            with self.subTest(route="update", field=field):
                cid = (tg if kind == "messenger" else mail)["id"]
                r = dc.put("/api/v1/channels/%d" % cid, {"type": kind, "params": params}, token=user.token)
                self.assertValidationLoc(r, loc)
            with self.subTest(route="bulk", field=field):
                r = dc.post("/api/notify/channels/bulk", {kind: params}, token=user.token)
                self.assertValidationLoc(r, ["body", kind, field])
        r = dc.post("/api/v1/channels", {"type": "email", "params": dict(good_mail, to_addrs=["b@example.org\r\n"])},
                    token=user.token)
        self.assertValidationLoc(r, ["body", "params", "to_addrs", 0])
        # The password never comes back, not even in the refusal.
        r = dc.post("/api/v1/channels", {"type": "email", "params": dict(good_mail, password="pw\r\nsecret-tail")},
                    token=user.token)
        self.assertNotIn("secret-tail", r.text)
        # Nothing was stored: the two channels are as created.
        stored = dc.db_query("SELECT COUNT(*) FROM channels WHERE user_id = %d" % user.id)
        self.assertEqual(stored, [["2"]])
        self.assertEqual(dc.db_query("SELECT JSON_VALUE(params, '$.username') FROM channels WHERE id = %d"
                                     % mail["id"]), [["ops"]])

    def test_an_smtp_host_is_a_name_or_an_address_and_a_token_cannot_reshape_the_bot_api_url(self):
        user = self.new_user("hst")
        for host in ("h.example/%0d%0aHELO x", "user@h.example", "h.example:25"):
            with self.subTest(host=host):
                r = dc.post("/api/v1/channels", {"type": "email", "params": {"host": host}}, token=user.token)
                self.assertValidation(r, [("value_error", ["body", "params", "host"])])
        r = dc.post("/api/v1/channels", {"type": "messenger", "params": {"token": "1:a/../../x?", "chat_id": "1"}},
                    token=user.token)
        self.assertValidation(r, [("string_pattern_mismatch", ["body", "params", "token"])])
        r = dc.post("/api/v1/channels", {"type": "email", "params": {"host": "::1", "to_addrs": []}}, token=user.token)
        self.assertEqual(r.status, 200, r)

    def test_a_forged_recipient_stored_in_a_username_never_reaches_the_smtp_server(self):
        """A channel stored before the routes refused CR/LF (or written around them): the login name is
        never the sender, and the sender checks every field again before any byte leaves."""
        user = self.new_user("inj")
        params = {"host": "127.0.0.1", "port": self.smtp.port, "use_tls": False, "username": INJECTION,
                  "password": None, "from_addr": None, "to_addrs": ["oncall@example.org"]}
        dc.db_query("INSERT INTO channels (user_id, type, enabled, params, name, config, is_active)"
                    " VALUES (%d, 'email', 1, '%s', 'email', '{}', 1)"
                    % (user.id, json.dumps(params).replace("\\", "\\\\").replace("'", "''")))
        stored = dc.db_query("SELECT LOCATE(CHAR(13, 10), JSON_VALUE(params, '$.username')) > 0 FROM channels"
                             " WHERE user_id = %d" % user.id)
        self.assertEqual(stored, [["1"]])  # the bad value really is in the database
        before = len(self.smtp.commands)
        r = dc.post("/api/notify/test", token=user.token)
        self.assertEqual(r.status, 200, r)
        self.assertEqual(r.json["results"][0]["status"], "error", r)
        commands = self.smtp.commands[before:]
        self.assertFalse([c for c in commands if "victim" in c], commands)
        self.assertFalse([c for c in commands if c.upper().startswith("MAIL FROM:<OPS")], commands)

    def test_an_email_channel_without_from_addr_uses_the_default_sender_and_says_so(self):
        default = dc.config_value("notify", "smtp_from", "")
        self.assertTrue(default, "the test stack sets notify.smtp_from (scripts/lib/test_stack.sh)")
        user = self.new_user("dfs")
        r = dc.post("/api/v1/channels", {"type": "email", "params": {
            "host": "127.0.0.1", "port": self.smtp.port, "use_tls": False, "username": "ops@corp.example",
            "password": "smtp-secret-pw", "to_addrs": ["oncall@example.org"]}}, token=user.token)
        self.assertEqual(r.status, 200, r)
        before = len(self.smtp.messages)
        r = dc.post("/api/notify/test", token=user.token)
        self.assertEqual(r.status, 200, r)
        result = r.json["results"][0]
        self.assertEqual((result["status"], result["sender"], result["default_sender"]), ("ok", default, True), r)
        self.assertEqual(len(self.smtp.messages), before + 1)
        raw = self.smtp.messages[before]
        self.assertIn("<%s>" % default, raw["from"])
        self.assertNotIn("ops@corp.example", raw["from"])
        msg = email.message_from_bytes(raw["data"], policy=email.policy.default)
        self.assertEqual(str(msg["From"]), default)
        # A channel that names its sender is sent from it, and the answer says it is its own.
        mail = self.mailbox(user)
        r = dc.post("/api/notify/test?channel_id=%d" % mail["id"], token=user.token)
        self.assertEqual([(x["sender"], x["default_sender"]) for x in r.json["results"]],
                         [("dozor@example.org", False)], r)

    def test_proxy_credentials_are_masked_and_a_masked_echo_keeps_them_for_the_same_proxy_only(self):
        user = self.new_user("prx")
        proxy = "http://ann:pr0xy-pass-77@127.0.0.1:3128"
        ch = self.messenger(user, proxy=proxy)
        self.assertEqual(ch["params"]["proxy"], "http://ann:****77@127.0.0.1:3128")
        listed = dc.get("/api/v1/channels", token=user.token)
        self.assertNotIn("pr0xy-pass", listed.text)
        admin = dc.get("/api/admin/users/%d/channels" % user.id, token=dc.admin_token())
        self.assertNotIn("pr0xy-pass", admin.text)
        bulk = dc.post("/api/notify/channels/bulk", {"messenger": {"token": TOKEN, "chat_id": "4242"}},
                       token=user.token)
        self.assertEqual(bulk.json["messenger"]["params"]["proxy"], "http://ann:****77@127.0.0.1:3128", bulk)
        # Sent back as read: the stored proxy stays.
        r = dc.put("/api/v1/channels/%d" % ch["id"], {"type": "messenger", "params": ch["params"]}, token=user.token)
        self.assertEqual(r.status, 200, r)
        stored = dc.db_query("SELECT JSON_VALUE(params, '$.proxy') FROM channels WHERE id = %d" % ch["id"])
        self.assertEqual(stored, [[proxy]])
        # The masked password aimed at another host is refused, not carried there.
        moved = dict(ch["params"], proxy="http://ann:****77@127.0.0.2:3128")
        r = dc.put("/api/v1/channels/%d" % ch["id"], {"type": "messenger", "params": moved}, token=user.token)
        self.assertValidation(r, [("value_error", ["body", "params", "proxy"])])
        self.assertEqual(dc.db_query("SELECT JSON_VALUE(params, '$.proxy') FROM channels WHERE id = %d" % ch["id"]),
                         [[proxy]])

    def test_a_masked_smtp_password_is_not_carried_to_another_host(self):
        user = self.new_user("mvh")
        mail = self.mailbox(user)
        moved = dict(mail["params"], host="127.0.0.2")
        r = dc.put("/api/v1/channels/%d" % mail["id"], {"type": "email", "params": moved}, token=user.token)
        self.assertValidation(r, [("value_error", ["body", "params", "password"])])
        r = dc.put("/api/v1/channels/%d" % mail["id"], {"type": "email", "params": dict(moved, password="new-pw-1")},
                   token=user.token)
        self.assertEqual(r.status, 200, r)
        # The bulk route's merge keeps an unnamed password only for the same host, too.
        r = dc.post("/api/notify/channels/bulk", {"email": {"host": "127.0.0.3"}}, token=user.token)
        self.assertValidation(r, [("value_error", ["body", "email", "password"])])
        r = dc.post("/api/notify/channels/bulk", {"email": {"host": "127.0.0.2", "port": 2525}}, token=user.token)
        self.assertEqual(r.status, 200, r)
        self.assertEqual(dc.db_query("SELECT JSON_VALUE(params, '$.password') FROM channels WHERE id = %d"
                                     % mail["id"]), [["new-pw-1"]])

    def test_bulk_merges_into_the_stored_channel(self):
        user = self.new_user("mrg")
        full = {"enabled": True, "host": "127.0.0.1", "port": self.smtp.port, "use_tls": False, "username": "ops",
                "password": "smtp-secret-pw", "from_addr": "dozor@example.org", "to_addrs": ["oncall@example.org"]}
        r = dc.post("/api/notify/channels/bulk", {"email": full}, token=user.token)
        self.assertEqual(r.status, 200, r)
        r = dc.post("/api/notify/channels/bulk", {"email": {"host": "127.0.0.1", "to_addrs": ["night@example.org"]}},
                    token=user.token)
        self.assertEqual(r.status, 200, r)
        params = r.json["email"]["params"]
        self.assertEqual((params["username"], params["from_addr"], params["port"], params["to_addrs"]),
                         ("ops", "dozor@example.org", self.smtp.port, ["night@example.org"]), r)
        self.assertIs(r.json["email"]["enabled"], True, r)  # not named: kept, not reset to EmailConfig's false
        row = dc.db_query("SELECT JSON_VALUE(params, '$.password'), enabled FROM channels WHERE user_id = %d" % user.id)
        self.assertEqual(row, [["smtp-secret-pw", "1"]])
        # Named members still replace, null included.
        r = dc.post("/api/notify/channels/bulk", {"email": {"host": "127.0.0.1", "from_addr": None, "enabled": False}},
                    token=user.token)
        self.assertIsNone(r.json["email"]["params"]["from_addr"], r)
        self.assertIs(r.json["email"]["enabled"], False, r)
        self.assertEqual(r.json["email"]["params"]["username"], "ops", r)

    def test_channel_params_are_optional_with_an_empty_default(self):
        user = self.new_user("opt")
        for body in ({"type": "messenger"}, {"type": "email", "enabled": False}, {"type": "email", "params": {}}):
            with self.subTest(body=body):
                r = dc.post("/api/v1/channels", body, token=user.token)
                self.assertEqual(r.status, 200, r)
                self.assertEqual(r.json["params"], {}, r)
                self.assertEqual(r.json["type"], body["type"], r)
        listed = dc.get("/api/v1/channels", token=user.token).json
        r = dc.post("/api/v1/notify/test?channel_id=%d" % listed[0]["id"], token=user.token)
        self.assertEqual(r.status, 200, r)
        self.assertEqual(r.json["results"][0]["status"], "error", r)
        self.assertIn("not configured", r.json["results"][0]["error"], r)
        # An empty params is "not configured"; a partial one is still validated for the type.
        r = dc.put("/api/v1/channels/%d" % listed[0]["id"], {"type": "messenger", "params": {"chat_id": "1"}},
                   token=user.token)
        self.assertValidation(r, [("missing", ["body", "params", "token"])])

    # ------------------------------------------------------------------ issue 26: the test route's bounds

    def test_the_test_route_answers_within_its_deadline_when_servers_never_answer(self):
        user = self.new_user("ddl")
        hole = BlackHole()
        self.addCleanup(hole.close)
        good = self.messenger(user)
        hung_mail = dc.post("/api/v1/channels", {"type": "email", "params": {
            "host": "127.0.0.1", "port": hole.port, "use_tls": False, "from_addr": "a@example.org",
            "to_addrs": ["b@example.org"]}}, token=user.token).json
        hung_proxy = self.messenger(user, proxy="http://127.0.0.1:%d" % hole.port)
        started = time.monotonic()
        r = dc.post("/api/notify/test", token=user.token, timeout=60)
        elapsed = time.monotonic() - started
        self.assertEqual(r.status, 200, r)
        self.assertLess(elapsed, TEST_DEADLINE + 3, r)
        self.assertEqual(r.json["deadline_seconds"], TEST_DEADLINE, r)
        by_id = {x["channel_id"]: x for x in r.json["results"]}
        self.assertEqual(by_id[good["id"]]["status"], "ok", r)
        self.assertEqual(by_id[hung_mail["id"]]["status"], "timeout", r)
        self.assertEqual(by_id[hung_proxy["id"]]["status"], "timeout", r)
        self.assertIn("no answer", by_id[hung_mail["id"]]["error"], r)
        self.assertEqual(r.json["sent"], 1, r)

    def test_one_test_in_flight_per_user(self):
        user = self.new_user("one")
        other = self.new_user("two")
        hole = BlackHole()
        self.addCleanup(hole.close)
        self.messenger(user, proxy="http://127.0.0.1:%d" % hole.port)
        self.messenger(other)
        first = {}
        t = threading.Thread(target=lambda: first.update(r=dc.post("/api/notify/test", token=user.token, timeout=60)))
        t.start()
        self.assertTrue(dc.wait_until(lambda: len(hole.held) >= 1, 10, 0.05), "the first test never connected")
        second = dc.post("/api/v1/notify/test", token=user.token)
        self.assertDetail(second, 429)
        self.assertGreaterEqual(int(second.header("Retry-After")), 1, second)
        self.assertLessEqual(int(second.header("Retry-After")), TEST_DEADLINE + 5, second)
        # Another user is not held back by it.
        self.assertEqual(dc.post("/api/notify/test", token=other.token).json["results"][0]["status"], "ok")
        t.join(60)
        self.assertEqual(first["r"].status, 200, first)
        # Once the first has answered, the user may test again at once.
        self.assertEqual(dc.post("/api/notify/test", token=user.token, timeout=60).status, 200)

    def test_one_channel_can_be_tested_alone_and_only_by_its_owner(self):
        user = self.new_user("solo")
        tg = self.messenger(user)
        off = dc.put("/api/v1/channels/%d" % tg["id"], {"type": "messenger", "enabled": False,
                                                        "params": tg["params"]}, token=user.token).json
        self.assertIs(off["enabled"], False)
        self.mailbox(user)
        before = len(self.telegram.sent())
        r = dc.post("/api/notify/test?channel_id=%d" % tg["id"], token=user.token)
        self.assertEqual(r.status, 200, r)
        self.assertEqual([(x["channel_id"], x["status"]) for x in r.json["results"]], [(tg["id"], "ok")], r)
        self.assertEqual(len(self.telegram.sent()), before + 1)
        # Without channel_id: every enabled channel (the disabled one is left out).
        r = dc.post("/api/notify/test", token=user.token)
        self.assertNotIn(tg["id"], [x["channel_id"] for x in r.json["results"]], r)
        other = self.new_user("solo2")
        self.assertDetail(dc.post("/api/notify/test?channel_id=%d" % tg["id"], token=other.token), 404)
        self.assertValidation(dc.post("/api/notify/test?channel_id=x", token=user.token),
                              [("int_parsing", ["query", "channel_id"])])

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


    def test_the_channel_list_shows_each_channels_last_delivery_and_last_failure_from_the_outbox(self):
        user = self.new_user("dlv")
        tg = self.messenger(user)
        quiet = self.mailbox(user)  # a channel the outbox never used: nothing to show
        self.assertIsNone(tg["last_delivery"])
        self.assertIsNone(tg["last_failure"])

        def mine(channel_id):
            listed = dc.get("/api/v1/channels", token=user.token).json
            return next(c for c in listed if c["id"] == channel_id)

        payload = {"service_id": 1, "incident_id": 9, "up": False, "service_name": "Shop main",
                   "url": "https://shop.example/", "error": "HTTP status 500", "outage_seconds": 0,
                   "at": "2026-11-23T06:00:00Z"}
        self.telegram.fail_next = 1  # the first attempt fails: a failure, the message kept for a retry
        self.enqueue(user, tg["id"], "incident:9:down", payload)
        self.assertTrue(dc.wait_until(lambda: mine(tg["id"])["last_failure"] is not None, 30, 0.5))
        ch = mine(tg["id"])
        self.assertIsNone(ch["last_delivery"], ch)
        self.assertEqual(ch["last_failure"]["message_state"], "pending", ch)
        self.assertIn("Telegram answered HTTP 500", ch["last_failure"]["error"])
        self.assertRegex(ch["last_failure"]["at"], r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")
        self.assertNotIn(TOKEN, json.dumps(ch))
        # The retry, without waiting out the 15 s backoff: delivered, and the failure stays on record.
        dc.db_query("UPDATE notification_outbox SET next_attempt_at = NOW(3) WHERE user_id = %d" % user.id)
        self.assertTrue(dc.wait_until(lambda: mine(tg["id"])["last_delivery"] is not None, 30, 0.5))
        ch = mine(tg["id"])
        self.assertEqual((ch["last_delivery"]["kind"], ch["last_delivery"]["service_name"]),
                         ("service_down", "Shop main"), ch)
        self.assertGreaterEqual(ch["last_delivery"]["at"], ch["last_failure"]["at"])
        self.assertEqual(ch["last_failure"]["message_state"], "sent", ch)
        # The latest of several: a later delivery replaces the earlier one.
        self.enqueue(user, tg["id"], "incident:9:up", dict(payload, up=True, service_name="Shop again"))
        self.assertTrue(dc.wait_until(
            lambda: (mine(tg["id"])["last_delivery"] or {}).get("service_name") == "Shop again", 30, 0.5))
        self.assertEqual(mine(tg["id"])["last_delivery"]["kind"], "service_down")  # enqueue() writes that kind
        # Per channel, and an update keeps them in its answer.
        self.assertIsNone(mine(quiet["id"])["last_delivery"])
        self.assertIsNone(mine(quiet["id"])["last_failure"])
        r = dc.put("/api/v1/channels/%d" % tg["id"], {"type": "messenger", "params": tg["params"]}, token=user.token)
        self.assertEqual(r.status, 200, r)
        self.assertEqual(r.json["last_delivery"]["service_name"], "Shop again")
        self.assertEqual(r.json["last_failure"]["message_state"], "sent")

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
