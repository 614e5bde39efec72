"""Public status pages (issue 7 §4): opt-in publication of a group at /status/{slug}, its JSON
twin with exact daily uptime from rollups, nothing private unless the owner shows it."""

import unittest

import dozor_client as dc


def rows(sql):
    return dc.db_query(sql)


class StatusPageTest(dc.DozorTestCase):
    def publish(self, user, slug, **fields):
        body = {"name": "Public", "status_slug": slug, "status_public": True}
        body.update(fields)
        r = dc.post("/api/v1/groups", body, token=user.token)
        self.assertEqual(r.status, 200, r)
        return r.json

    def test_json_twin_has_exact_bars_and_hides_urls_ids_and_causes(self):
        user = self.new_user("stat")
        slug = dc.unique_name("st").lower().replace("_", "-")
        group = self.publish(user, slug, status_announcement="All good")
        svc = self.new_service(user, name="Shop", group_id=group["id"], url="http://127.0.0.1:9/secret-path")
        other = self.new_service(user, name="Not in the group")
        # Yesterday: 1 h down of 24 h watched; today: no data yet.
        rows("INSERT INTO rollup_daily (service_id, bucket_start, checks, failures, observed_ms, down_ms, rt_hist)"
             " VALUES (%d, CURRENT_DATE() - INTERVAL 1 DAY, 100, 4, 86400000, 3600000, '')" % svc["id"])
        rows("INSERT INTO incidents (service_id, started_at, ended_at, cause) VALUES"
             " (%d, NOW(3) - INTERVAL 1 DAY, NOW(3) - INTERVAL 23 HOUR, 'cannot connect to 10.1.2.3')" % svc["id"])
        r = dc.get("/api/status/" + slug)  # no token
        self.assertEqual(r.status, 200, r)
        self.assertEqual(r.header("Cache-Control"), "public, max-age=10")
        self.assertEqual(r.header("Access-Control-Allow-Origin"), "*")
        page = r.json
        self.assertEqual((page["title"], page["announcement"], page["slug"]), ("Public", "All good", slug))
        self.assertEqual([s["name"] for s in page["services"]], ["Shop"])
        shop = page["services"][0]
        self.assertEqual(len(shop["days"]), 90)
        self.assertEqual(shop["days"][-2]["uptime"], 95.833, shop["days"][-2])  # 23/24, floored at 3 decimals
        self.assertIsNone(shop["days"][-1]["uptime"])
        self.assertEqual(shop["uptime_90d"], 95.833)
        self.assertEqual(len(page["incidents"]), 1)
        self.assertEqual(page["incidents"][0]["duration_seconds"], 3600)
        text = r.text
        for private in ("secret-path", "10.1.2.3", '"id"', '"service_id"', str(user.username)):
            self.assertNotIn(private, text)
        self.assertNotIn(other["name"], text)
        # The same under /api/v1; the owner may choose to show URLs and causes.
        dc.put("/api/v1/groups/%d" % group["id"], {"status_show_urls": True}, token=user.token)
        shown = dc.wait_until(lambda: (lambda p: p if "url" in p["services"][0] else None)(
            dc.get("/api/v1/status/" + slug).json), 15, 0.5)
        self.assertTrue(shown, "status_show_urls never took effect")
        self.assertEqual(shown["services"][0]["url"], svc["url"])
        self.assertEqual(shown["incidents"][0]["cause"], "cannot connect to 10.1.2.3")

    def test_unpublished_unknown_and_malformed_slugs_are_404(self):
        user = self.new_user("stat404")
        slug = dc.unique_name("priv").lower().replace("_", "-")
        self.publish(user, slug, status_public=False)
        for path in (slug, "no-such-status-page", "UPPER", "a", "x" * 65, "..%2Fadmin"):
            with self.subTest(path=path):
                self.assertDetail(dc.get("/api/status/" + path), 404)

    def test_slugs_are_validated_and_unique(self):
        a, b = self.new_user("sla"), self.new_user("slb")
        slug = dc.unique_name("uniq").lower().replace("_", "-")
        self.publish(a, slug)
        # A published page holds its slug: publishing it again, by anyone, is a conflict.
        r = dc.post("/api/v1/groups", {"name": "mine", "status_slug": slug, "status_public": True}, token=b.token)
        self.assertDetail(r, 409, "This status page address is already taken")
        # One owner's groups have different slugs, published or not.
        r = dc.post("/api/v1/groups", {"name": "again", "status_slug": slug}, token=a.token)
        self.assertDetail(r, 409, "This status page address is already taken")
        for bad in ("ab", "Has-Upper", "-lead", "trail-", "dou--ble", "sp ace", "x" * 65):
            with self.subTest(slug=bad):
                r = dc.post("/api/v1/groups", {"name": "g", "status_slug": bad}, token=b.token)
                self.assertEqual(r.status, 422, r)
        self.assertEqual(dc.get("/api/v1/groups", token=b.token).json, [])

    def test_the_public_title_is_its_own_and_falls_back_to_the_group_name(self):
        user = self.new_user("sttitle")
        slug = dc.unique_name("title").lower().replace("_", "-")
        group = self.publish(user, slug, name="prod-eu-internal", status_title="Acme status")
        self.assertEqual(group["status_title"], "Acme status")
        self.assertEqual(dc.get("/api/status/" + slug).json["title"], "Acme status")
        r = dc.put("/api/v1/groups/%d" % group["id"], {"status_title": None}, token=user.token)
        self.assertEqual(r.status, 200, r)
        self.assertIsNone(r.json["status_title"])
        self.assertEqual(r.json["name"], "prod-eu-internal")
        fallback = dc.wait_until(lambda: dc.get("/api/v1/status/" + slug).json["title"] == "prod-eu-internal", 15, 0.5)
        self.assertTrue(fallback, "the title never fell back to the group's name")
        for bad in ("", "x" * 256):
            with self.subTest(title=len(bad)):
                r = dc.put("/api/v1/groups/%d" % group["id"], {"status_title": bad}, token=user.token)
                self.assertEqual(r.status, 422, r)
        # Unpublishing takes the page down (after the page cache's few seconds).
        dc.put("/api/v1/groups/%d" % group["id"], {"status_public": False}, token=user.token)
        gone = dc.wait_until(lambda: dc.get("/api/status/" + slug).status == 404, 15, 0.5)
        self.assertTrue(gone, "an unpublished page stayed up")

    def test_a_private_slug_is_not_told_to_other_users(self):
        # Issue 26 §6: "already taken" must not reveal that another user's unpublished page exists.
        a, b = self.new_user("spa"), self.new_user("spb")
        slug = dc.unique_name("hid").lower().replace("_", "-")
        r = dc.post("/api/v1/groups", {"name": "Secret plans", "status_slug": slug}, token=a.token)
        self.assertEqual(r.status, 200, r)
        hidden = r.json["id"]
        # For b the slug is as free as one nobody uses: taken privately, then published.
        r = dc.post("/api/v1/groups", {"name": "Mine", "status_slug": slug}, token=b.token)
        self.assertEqual(r.status, 200, r)
        r = dc.put("/api/v1/groups/%d" % r.json["id"], {"status_public": True}, token=b.token)
        self.assertEqual(r.status, 200, r)
        page = dc.get("/api/status/" + slug)
        self.assertEqual(page.status, 200, page)
        self.assertEqual(page.json["title"], "Mine")
        self.assertNotIn("Secret plans", page.text)
        # a now meets a published page, which anyone can see: that conflict tells nothing private.
        r = dc.put("/api/v1/groups/%d" % hidden, {"status_public": True}, token=a.token)
        self.assertDetail(r, 409, "This status page address is already taken")

    def test_the_page_itself_is_served_by_nginx_for_any_slug(self):
        r = dc.get("/status/whatever-slug")
        self.assertEqual(r.status, 200, r)
        self.assertIn('src="/js/status.js"', r.text)


if __name__ == "__main__":
    unittest.main()
