"""The eight admin routes of spec §4.5: access control, validation, conflicts, token revocation,
and the last-active-admin guard. The first admin ``admin`` is left an active admin."""

import secrets
import subprocess
import unittest

import dozor_client as dc

ADMIN_ONLY = "Admin privileges required"


def user_routes(user_id):
    """(method, path, body) for all eight admin routes, with user_id filled in."""
    return [
        ("GET", "/api/admin/users", None),
        ("POST", "/api/admin/users",
         {"username": dc.unique_name("nope"), "email": "nope-%s@example.com" % secrets.token_hex(4),
          "password": "Long-enough-pw-1"}),
        ("PUT", "/api/admin/users/%s" % user_id, {"is_admin": True}),
        ("DELETE", "/api/admin/users/%s" % user_id, None),
        ("GET", "/api/admin/users/%s/services" % user_id, None),
        ("GET", "/api/admin/users/%s/groups" % user_id, None),
        ("GET", "/api/admin/users/%s/channels" % user_id, None),
        ("GET", "/api/admin/me", None),
    ]


def call(method, path, body, token):
    if body is None:
        return dc.request(method, path, token=token)
    return dc.request(method, path, json_body=body, token=token)


def find_user(user_id):
    r = dc.get("/api/admin/users", token=dc.admin_token())
    assert r.status == 200, r
    for u in r.json:
        if u["id"] == user_id:
            return u
    return None


def ensure_admin_intact():
    """Cleanup of last-admin tests: if the backend wrongly let ``admin`` be demoted,
    deactivated or deleted, repair it through a rescue admin made with dozorctl."""
    r = dc.login(dc.ADMIN_USER, dc.ADMIN_PASSWORD)
    if r.status == 200 and r.json["user"]["is_admin"] and r.json["user"]["is_active"]:
        dc.admin_token(refresh=True)
        return
    dozorctl = [str(dc.BIN_DIR / "dozorctl"), "--config", str(dc.STATE_DIR / "dozor.toml")]
    name, pw = dc.unique_name("rescue"), "Rescue-" + secrets.token_urlsafe(16)
    subprocess.run(dozorctl + ["user", "add", "--username", name, "--email", name.replace("_", "-") +
                               "@example.com", "--admin", "--password-stdin"],
                   input=pw + "\n", text=True, check=True, timeout=60, capture_output=True)
    rescue = dc.login_token(name, pw)
    users = dc.get("/api/admin/users", token=rescue).json
    me = [u for u in users if u["username"] == dc.ADMIN_USER]
    if me:
        dc.put("/api/admin/users/%d" % me[0]["id"],
               {"is_admin": True, "is_active": True, "password": dc.ADMIN_PASSWORD}, token=rescue)
    else:
        dc.post("/api/admin/users", {"username": dc.ADMIN_USER, "email": "admin-restored@example.com",
                                      "password": dc.ADMIN_PASSWORD, "is_admin": True}, token=rescue)
    dc.admin_token(refresh=True)
    rescue_id = [u for u in users if u["username"] == name][0]["id"]
    dc.delete_user(rescue_id)
    raise AssertionError("the backend let the last active admin be demoted/deactivated/deleted "
                         "(repaired with a rescue admin): %r" % r)


class AdminAccessTest(dc.DozorTestCase):
    def test_no_token_gives_401_on_all_eight_routes(self):
        u = self.new_user("noauth")
        for method, path, body in user_routes(u.id):
            with self.subTest(route="%s %s" % (method, path)):
                self.assertUnauthenticated(call(method, path, body, None))
        self.assertIsNotNone(find_user(u.id), "an unauthenticated DELETE removed the user")

    def test_non_admin_gets_403_on_all_eight_routes_and_changes_nothing(self):
        u = self.new_user("plain")
        other = self.new_user("other")
        attempted = []
        for target in (u.id, other.id):
            for method, path, body in user_routes(target):
                with self.subTest(route="%s %s" % (method, path)):
                    self.assertDetail(call(method, path, body, u.token), 403, ADMIN_ONLY)
                if method == "POST":
                    attempted.append(body["username"])
        names = [x["username"] for x in dc.get("/api/admin/users", token=dc.admin_token()).json]
        for name in attempted:
            self.assertNotIn(name, names, "a non-admin created a user")
        # nothing changed: both still exist, neither became admin, nobody was created
        for target in (u.id, other.id):
            found = find_user(target)
            self.assertIsNotNone(found)
            self.assertIs(found["is_admin"], False, found)
        # and the caller's token still works (no side effect on the token version either)
        self.assertEqual(dc.get("/api/auth/verify", token=u.token).status, 200)

    def test_me(self):
        r = dc.get("/api/admin/me", token=dc.admin_token())
        self.assertEqual(r.status, 200, r)
        self.assertUserResponse(r.json)
        self.assertEqual(r.json["username"], dc.ADMIN_USER)
        self.assertIs(r.json["is_admin"], True)
        self.assertIs(r.json["is_active"], True)
        self.assertNoSecrets(r, dc.ADMIN_PASSWORD)

    def test_me_of_a_second_admin_is_that_admin(self):
        a2 = self.new_user("admin2", is_admin=True)
        r = dc.get("/api/admin/me", token=a2.token)
        self.assertEqual(r.status, 200, r)
        self.assertEqual(r.json["id"], a2.id)
        self.assertEqual(r.json["username"], a2.username)


class AdminUsersTest(dc.DozorTestCase):
    def test_create_then_list_then_login(self):
        username = dc.unique_name("create")
        email = username.replace("_", "-") + "@example.com"
        password = "Pw-" + secrets.token_urlsafe(10)
        r = dc.post("/api/admin/users", {"username": username, "email": email, "password": password},
                    token=dc.admin_token())
        self.assertEqual(r.status, 200, r)
        self.addCleanup(dc.delete_user, r.json.get("id", 0))
        self.assertUserResponse(r.json)
        self.assertEqual((r.json["username"], r.json["email"]), (username, email))
        self.assertIs(r.json["is_admin"], False)  # default
        self.assertIs(r.json["is_active"], True)
        self.assertIsNotNone(r.json["created_at"])
        self.assertNoSecrets(r, password)

        lst = dc.get("/api/admin/users", token=dc.admin_token())
        self.assertEqual(lst.status, 200, lst)
        self.assertIsInstance(lst.json, list)
        for item in lst.json:
            self.assertUserResponse(item)
        ids = [item["id"] for item in lst.json]
        self.assertEqual(ids, sorted(ids), "users not listed by id")
        self.assertIn(r.json["id"], ids)
        self.assertIn(dc.ADMIN_USER, [item["username"] for item in lst.json])
        self.assertNoSecrets(lst, password, dc.ADMIN_PASSWORD)

        login = dc.login(username, password)
        self.assertEqual(login.status, 200, login)
        self.assertEqual(login.json["user"]["id"], r.json["id"])

    def test_create_admin(self):
        a = self.new_user("mkadmin", is_admin=True)
        self.assertIs(find_user(a.id)["is_admin"], True)
        r = dc.get("/api/admin/users", token=a.token)
        self.assertEqual(r.status, 200, r)

    def test_duplicate_username_or_email_is_409(self):
        u = self.new_user("dup")
        r = dc.post("/api/admin/users", {"username": u.username, "email": "other-%s@example.com" %
                                         secrets.token_hex(4), "password": "Long-enough-pw-1"},
                    token=dc.admin_token())
        self.assertDetail(r, 409)
        r = dc.post("/api/admin/users", {"username": dc.unique_name("dup2"), "email": u.email,
                                         "password": "Long-enough-pw-1"}, token=dc.admin_token())
        self.assertDetail(r, 409)
        # the first user is untouched
        self.assertEqual(find_user(u.id)["email"], u.email)
        # and updating another user to an e-mail already taken is a 409 too
        v = self.new_user("dup3")
        r = dc.put("/api/admin/users/%d" % v.id, {"email": u.email}, token=dc.admin_token())
        self.assertDetail(r, 409)
        self.assertEqual(find_user(v.id)["email"], v.email)

    def test_create_validation(self):
        tok = dc.admin_token()
        r = dc.post("/api/admin/users", {}, token=tok)
        self.assertValidation(r, [("missing", ["body", "username"]), ("missing", ["body", "email"]),
                                  ("missing", ["body", "password"])])
        for bad in ("not-an-email", "a@", "@example.com", "a b@example.com", ""):
            with self.subTest(email=bad):
                r = dc.post("/api/admin/users", {"username": dc.unique_name("bademail"), "email": bad,
                                                 "password": "Long-enough-pw-1"}, token=tok)
                self.assertValidation(r, [("value_error", ["body", "email"])])
        r = dc.post("/api/admin/users", {"username": 5, "email": 6, "password": 7, "is_admin": "maybe"},
                    token=tok)
        self.assertValidation(r, [("string_type", ["body", "username"]), ("string_type", ["body", "password"]),
                                  ("bool_parsing", ["body", "is_admin"])])
        self.assertValidationLoc(r, ["body", "email"])
        r = dc.post("/api/admin/users", {"username": dc.unique_name("short"), "email": "s@example.com",
                                         "password": "short"}, token=tok)
        self.assertValidation(r, [("string_too_short", ["body", "password"])])
        r = dc.post("/api/admin/users", {"username": dc.unique_name("long"), "email": "l@example.com",
                                         "password": "x" * 257}, token=tok)
        self.assertValidation(r, [("string_too_long", ["body", "password"])])
        for bad in ("", "has space", "x" * 65, "semi;colon", "<script>"):
            with self.subTest(username=bad):
                r = dc.post("/api/admin/users", {"username": bad, "email": "v@example.com",
                                                 "password": "Long-enough-pw-1"}, token=tok)
                self.assertValidationLoc(r, ["body", "username"])
        r = dc.post("/api/admin/users", [1, 2], token=tok)
        self.assertValidation(r, [("model_attributes_type", ["body"])])
        r = dc.request("POST", "/api/admin/users", data=b"{nope", token=tok)
        self.assertEqual(r.status, 422, r)
        self.assertIn("json_invalid", [d["type"] for d in r.json["detail"]], r)
        # none of the rejected users exists
        names = [u["username"] for u in dc.get("/api/admin/users", token=tok).json]
        self.assertNotIn("has space", names)
        self.assertNotIn("<script>", names)

    def test_update_fields(self):
        u = self.new_user("upd")
        token = u.token
        new_email = "new-" + u.email
        r = dc.put("/api/admin/users/%d" % u.id, {"email": new_email}, token=dc.admin_token())
        self.assertEqual(r.status, 200, r)
        self.assertUserResponse(r.json)
        self.assertEqual(r.json["email"], new_email)
        self.assertEqual(find_user(u.id)["email"], new_email)
        # all-null update changes nothing
        r = dc.put("/api/admin/users/%d" % u.id,
                   {"email": None, "is_active": None, "is_admin": None, "password": None},
                   token=dc.admin_token())
        self.assertEqual(r.status, 200, r)
        self.assertEqual(r.json["email"], new_email)
        self.assertIs(r.json["is_active"], True)
        self.assertIs(r.json["is_admin"], False)
        # an e-mail change is not a password change, deactivation or demotion: the token lives
        self.assertEqual(dc.get("/api/auth/verify", token=token).status, 200)
        self.assertEqual(dc.login(u.username, u.password).status, 200)

    def test_update_validation_and_unknown_ids(self):
        u = self.new_user("updval")
        tok = dc.admin_token()
        r = dc.put("/api/admin/users/%d" % u.id, {"email": "bad"}, token=tok)
        self.assertValidation(r, [("value_error", ["body", "email"])])
        r = dc.put("/api/admin/users/%d" % u.id, {"is_active": "maybe", "is_admin": "perhaps"}, token=tok)
        self.assertValidation(r, [("bool_parsing", ["body", "is_active"]),
                                  ("bool_parsing", ["body", "is_admin"])])
        r = dc.put("/api/admin/users/%d" % u.id, {"password": 12345678}, token=tok)
        self.assertValidation(r, [("string_type", ["body", "password"])])
        r = dc.put("/api/admin/users/%d" % u.id, "x", token=tok)
        self.assertValidation(r, [("model_attributes_type", ["body"])])
        self.assertIs(find_user(u.id)["is_active"], True)
        r = dc.put("/api/admin/users/999999999", {"is_active": True}, token=tok)
        self.assertDetail(r, 404)

    def test_non_integer_user_id_is_422_on_path(self):
        tok = dc.admin_token()
        for method, path, body in (
            ("PUT", "/api/admin/users/abc", {"is_active": True}),
            ("DELETE", "/api/admin/users/abc", None),
            ("GET", "/api/admin/users/abc/services", None),
            ("GET", "/api/admin/users/abc/groups", None),
            ("GET", "/api/admin/users/abc/channels", None),
            ("GET", "/api/admin/users/1.5/services", None),
        ):
            with self.subTest(route="%s %s" % (method, path)):
                r = call(method, path, body, tok)
                detail = self.assertValidation(r, [("int_parsing", ["path", "user_id"])])
                self.assertIn(detail[0]["input"], ("abc", "1.5"), r)

    def test_unknown_user_is_404_everywhere(self):
        tok = dc.admin_token()
        for method, path, body in (
            ("PUT", "/api/admin/users/999999999", {"email": "x-%s@example.com" % secrets.token_hex(4)}),
            ("DELETE", "/api/admin/users/999999999", None),
            ("GET", "/api/admin/users/999999999/services", None),
            ("GET", "/api/admin/users/999999999/groups", None),
            ("GET", "/api/admin/users/999999999/channels", None),
        ):
            with self.subTest(route="%s %s" % (method, path)):
                self.assertDetail(call(method, path, body, tok), 404)

    def test_delete_user(self):
        u = dc.create_user("del")
        token = u.token
        self.new_service(u)
        r = dc.delete("/api/admin/users/%d" % u.id, token=dc.admin_token())
        self.assertEqual(r.status, 200, r)
        self.assertEqual(r.json, {"id": u.id, "deleted": True}, r)
        self.assertIsNone(find_user(u.id))
        self.assertDetail(dc.delete("/api/admin/users/%d" % u.id, token=dc.admin_token()), 404)
        self.assertDetail(dc.get("/api/admin/users/%d/services" % u.id, token=dc.admin_token()), 404)
        self.assertUnauthenticated(dc.get("/api/auth/verify", token=token))
        self.assertUnauthenticated(dc.get("/api/v1/services", token=token))
        self.assertDetail(dc.login(u.username, u.password), 401)

    def test_services_groups_channels_of_a_user(self):
        u = self.new_user("owner")
        other = self.new_user("notowner")
        s1 = self.new_service(u, name="first", url="http://127.0.0.1:9/one")
        s2 = self.new_service(u, prefix="/api", name="second", url="https://127.0.0.1:9/two",
                              check_interval=300, is_active=False)
        self.new_service(other, name="foreign", url="http://127.0.0.1:9/foreign")
        tok = dc.admin_token()

        r = dc.get("/api/admin/users/%d/services" % u.id, token=tok)
        self.assertEqual(r.status, 200, r)
        self.assertIsInstance(r.json, list, r)
        for item in r.json:
            self.assertServiceResponse(item)
        self.assertEqual([s["id"] for s in r.json], [s1["id"], s2["id"]], r)
        self.assertEqual(r.json[1]["check_interval"], 300)
        self.assertIs(r.json[1]["is_active"], False)
        self.assertEqual(r.json[0]["name"], "first")

        # admins reach other users' data only through /api/admin: not in the admin's own list
        own = dc.get("/api/v1/services", token=tok)
        self.assertEqual(own.status, 200, own)
        self.assertNotIn(s1["id"], [s["id"] for s in own.json])

        for kind in ("groups", "channels"):
            with self.subTest(kind=kind):
                r = dc.get("/api/admin/users/%d/%s" % (u.id, kind), token=tok)
                self.assertEqual(r.status, 200, r)
                self.assertEqual(r.json, [], r)

        r = dc.get("/api/admin/users/%d/services" % other.id, token=tok)
        self.assertEqual([s["name"] for s in r.json], ["foreign"], r)


class TokenRevocationTest(dc.DozorTestCase):
    def test_deactivation_kills_the_token_and_blocks_login(self):
        u = self.new_user("deact")
        old = u.token
        self.assertEqual(dc.get("/api/auth/verify", token=old).status, 200)
        r = dc.put("/api/admin/users/%d" % u.id, {"is_active": False}, token=dc.admin_token())
        self.assertEqual(r.status, 200, r)
        self.assertIs(r.json["is_active"], False, r)
        self.assertUnauthenticated(dc.get("/api/auth/verify", token=old))
        self.assertUnauthenticated(dc.get("/api/v1/services", token=old))
        self.assertDetail(dc.login(u.username, u.password), 401, "Incorrect username or password")
        # reactivated: fresh login works, the old token stays dead
        r = dc.put("/api/admin/users/%d" % u.id, {"is_active": True}, token=dc.admin_token())
        self.assertEqual(r.status, 200, r)
        fresh = dc.login(u.username, u.password)
        self.assertEqual(fresh.status, 200, fresh)
        self.assertEqual(dc.get("/api/auth/verify", token=fresh.json["access_token"]).status, 200)
        self.assertUnauthenticated(dc.get("/api/auth/verify", token=old))

    def test_demotion_kills_the_admin_token(self):
        a = self.new_user("demote", is_admin=True)
        old = a.token
        self.assertEqual(dc.get("/api/admin/users", token=old).status, 200)
        r = dc.put("/api/admin/users/%d" % a.id, {"is_admin": False}, token=dc.admin_token())
        self.assertEqual(r.status, 200, r)
        self.assertIs(r.json["is_admin"], False, r)
        self.assertUnauthenticated(dc.get("/api/admin/users", token=old))
        self.assertUnauthenticated(dc.get("/api/auth/verify", token=old))
        fresh = a.relogin()
        self.assertEqual(dc.get("/api/auth/verify", token=fresh).status, 200)
        self.assertDetail(dc.get("/api/admin/users", token=fresh), 403, ADMIN_ONLY)

    def test_promotion_grants_admin_after_fresh_login(self):
        u = self.new_user("promote")
        r = dc.put("/api/admin/users/%d" % u.id, {"is_admin": True}, token=dc.admin_token())
        self.assertEqual(r.status, 200, r)
        self.assertIs(r.json["is_admin"], True, r)
        self.assertEqual(dc.get("/api/admin/users", token=u.relogin()).status, 200)

    def test_password_change_kills_the_token(self):
        u = self.new_user("chpw")
        old = u.token
        new_pw = "New-" + secrets.token_urlsafe(12)
        r = dc.put("/api/admin/users/%d" % u.id, {"password": new_pw}, token=dc.admin_token())
        self.assertEqual(r.status, 200, r)
        self.assertNoSecrets(r, new_pw, u.password)
        self.assertUnauthenticated(dc.get("/api/auth/verify", token=old))
        self.assertDetail(dc.login(u.username, u.password), 401)
        fresh = dc.login(u.username, new_pw)
        self.assertEqual(fresh.status, 200, fresh)
        self.assertEqual(dc.get("/api/auth/verify", token=fresh.json["access_token"]).status, 200)

    def test_short_password_on_update_is_rejected_and_old_token_survives(self):
        u = self.new_user("chpwbad")
        old = u.token
        r = dc.put("/api/admin/users/%d" % u.id, {"password": "short"}, token=dc.admin_token())
        self.assertValidation(r, [("string_too_short", ["body", "password"])])
        self.assertEqual(dc.get("/api/auth/verify", token=old).status, 200)


class LastAdminTest(dc.DozorTestCase):
    def setUp(self):
        self.addCleanup(ensure_admin_intact)
        tok = dc.admin_token()
        users = dc.get("/api/admin/users", token=tok).json
        others = [u for u in users if u["is_admin"] and u["is_active"] and u["username"] != dc.ADMIN_USER]
        for u in [u for u in others if u["username"].startswith(dc.TEST_PREFIX)]:
            dc.delete_user(u["id"])  # leftovers of an interrupted run
        foreign = [u["username"] for u in others if not u["username"].startswith(dc.TEST_PREFIX)]
        if foreign:
            self.skipTest("other active admins exist on this stack: %s" % foreign)
        self.admin_id = dc.admin_user_id()

    def test_last_active_admin_cannot_be_demoted_deactivated_or_deleted(self):
        tok = dc.admin_token()
        path = "/api/admin/users/%d" % self.admin_id
        for body in ({"is_admin": False}, {"is_active": False}, {"is_admin": False, "is_active": False}):
            with self.subTest(body=body):
                self.assertDetail(dc.put(path, body, token=tok), 409)
        self.assertDetail(dc.delete(path, token=tok), 409)
        me = dc.get("/api/admin/me", token=tok)  # the refused changes did not bump the token version
        self.assertEqual(me.status, 200, me)
        self.assertIs(me.json["is_admin"], True)
        self.assertIs(me.json["is_active"], True)

    def test_an_inactive_admin_does_not_count(self):
        spare = self.new_user("spare", is_admin=True)
        r = dc.put("/api/admin/users/%d" % spare.id, {"is_active": False}, token=dc.admin_token())
        self.assertEqual(r.status, 200, r)
        self.assertDetail(dc.put("/api/admin/users/%d" % self.admin_id, {"is_admin": False},
                                 token=dc.admin_token()), 409)
        self.assertDetail(dc.delete("/api/admin/users/%d" % self.admin_id, token=dc.admin_token()), 409)

    def test_with_a_second_active_admin_one_may_go(self):
        second = self.new_user("second", is_admin=True)
        r = dc.put("/api/admin/users/%d" % second.id, {"is_admin": False}, token=dc.admin_token())
        self.assertEqual(r.status, 200, r)
        self.assertIs(r.json["is_admin"], False)
        third = self.new_user("third", is_admin=True)
        r = dc.delete("/api/admin/users/%d" % third.id, token=dc.admin_token())
        self.assertEqual(r.status, 200, r)


if __name__ == "__main__":
    unittest.main()
