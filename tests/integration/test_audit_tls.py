"""Issue 8 §2 TLS: GET /api{,/v1}/audit/tls/{target} against local TLS fixtures — a good server
(TLS 1.2+1.3, the stack's trusted certificate, HSTS), an `openssl s_server` offering TLS 1.0 and
NULL/anonymous suites, and certificates that are expired, for another host, self-signed, or
1024-bit RSA signed with SHA-1 (made here, the bad-but-trusted ones signed by the stack's own
certificate, which scanner.ca_file names)."""

import datetime
import ipaddress
import os
import shutil
import socket
import ssl
import subprocess
import tempfile
import time
import unittest

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from cryptography.x509.oid import NameOID

import dozor_client as dc

CA_CERT = dc.STATE_DIR / "tls" / "cert.pem"
CA_KEY = dc.STATE_DIR / "tls" / "key.pem"
HSTS = "max-age=63072000; includeSubDomains"



def make_sha1_cert(tmp, name, bits, days):
    """A leaf with an RSA key of `bits` signed with SHA-1 by the stack's certificate (openssl; the
    cryptography package refuses SHA-1 signatures)."""
    key, csr, crt, ext = (os.path.join(tmp, name + s) for s in (".key", ".csr", ".crt", ".ext"))
    with open(ext, "w") as f:
        f.write("subjectAltName=IP:127.0.0.1\n")
    subprocess.run(["openssl", "req", "-new", "-newkey", "rsa:%d" % bits, "-nodes", "-subj", "/CN=" + name,
                    "-keyout", key, "-out", csr], check=True, capture_output=True)
    subprocess.run(["openssl", "x509", "-req", "-in", csr, "-CA", str(CA_CERT), "-CAkey", str(CA_KEY),
                    "-CAcreateserial", "-sha1", "-days", str(days), "-extfile", ext, "-out", crt],
                   check=True, capture_output=True)
    return crt, key


def make_cert(tmp, name, *, sans=("IP:127.0.0.1",), days=(-1, 90), rsa_bits=None, digest=hashes.SHA256(),
              self_signed=False):
    """A key and certificate in `tmp`; signed by the stack's certificate unless self_signed."""
    key = rsa.generate_private_key(65537, rsa_bits) if rsa_bits else ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    if self_signed:
        issuer_name, signer = subject, key
    else:
        ca = x509.load_pem_x509_certificate(CA_CERT.read_bytes())
        issuer_name = ca.subject
        signer = serialization.load_pem_private_key(CA_KEY.read_bytes(), None)
    alt = []
    for s in sans:
        kind, value = s.split(":", 1)
        alt.append(x509.IPAddress(ipaddress.ip_address(value)) if kind == "IP" else x509.DNSName(value))
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(subject).issuer_name(issuer_name).public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now + datetime.timedelta(days=days[0]))
            .not_valid_after(now + datetime.timedelta(days=days[1]))
            .add_extension(x509.SubjectAlternativeName(alt), critical=False)
            .sign(signer, digest))
    cert_path, key_path = os.path.join(tmp, name + ".crt"), os.path.join(tmp, name + ".key")
    with open(cert_path, "wb") as f:
        f.write(cert.public_bytes(serialization.Encoding.PEM))
    with open(key_path, "wb") as f:
        f.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                  serialization.NoEncryption()))
    return cert_path, key_path


class PyTlsSite(dc.FixtureServer):
    """An HTTPS fixture (Python's ssl, TLS 1.2 and 1.3) with the given certificate and HSTS."""

    def __init__(self, cert, key, hsts=HSTS, ciphers=None):
        headers = {"Content-Type": "text/html"}
        if hsts:
            headers["Strict-Transport-Security"] = hsts
        super().__init__({"/": (200, headers, "<html>ok</html>")})
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.minimum_version = ssl.TLSVersion.TLSv1_2
        if ciphers:  # Python's default list is AEAD with forward secrecy only (no SHA-1, no anonymous)
            ctx.set_ciphers(ciphers)
        ctx.load_cert_chain(cert, key)
        self.httpd.socket = ctx.wrap_socket(self.httpd.socket, server_side=True)

    def url(self, path="/"):
        return "https://127.0.0.1:%d%s" % (self.port, path)


class SServer:
    """`openssl s_server -www` with TLS 1.0 … 1.3 and NULL and anonymous suites at security level 0."""

    def __init__(self):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        self.port = s.getsockname()[1]
        s.close()
        self.proc = None

    def __enter__(self):
        self.proc = subprocess.Popen(
            ["openssl", "s_server", "-accept", "127.0.0.1:%d" % self.port, "-www", "-quiet",
             "-cert", str(CA_CERT), "-key", str(CA_KEY), "-min_protocol", "TLSv1",
             "-cipher", "ALL:eNULL:aNULL:@SECLEVEL=0"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

        def up():
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                return True
            except OSError:
                return False
        dc.wait_until(up, 10)
        return self

    def url(self, path="/"):
        return "https://127.0.0.1:%d%s" % (self.port, path)

    def __exit__(self, *exc):
        self.proc.terminate()
        self.proc.wait(timeout=10)


def checks(body):
    return {f["check"] for f in body["findings"]}


class AuditTls(dc.DozorTestCase):
    @classmethod
    def setUpClass(cls):
        cls.user = dc.create_user("tls")
        cls.tmp = tempfile.mkdtemp()

    @classmethod
    def tearDownClass(cls):
        dc.delete_user(cls.user.id)
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def tls(self, target, prefix="/api", encoded=True):
        r = dc.get("%s/audit/tls/%s" % (prefix, dc.enc(target) if encoded else target), token=self.user.token,
                   timeout=90)
        self.assertEqual(r.status, 200, r.text)
        self.assertJsonContentType(r)
        return r.json

    def test_a_good_server_gets_a_plus_under_both_prefixes_and_encodings(self):
        with PyTlsSite(CA_CERT, CA_KEY) as site:
            for prefix in ("/api/v1", "/api"):
                for encoded in (True, False):
                    body = self.tls(site.url("/"), prefix, encoded)
                    self.assertIsNone(body["error"])
                    self.assertEqual(body["tls"], "offered")
                    self.assertEqual(body["protocols"],
                                     {"TLSv1.0": False, "TLSv1.1": False, "TLSv1.2": True, "TLSv1.3": True})
                    cert = body["certificate"]
                    self.assertTrue(cert["verified"], cert)
                    self.assertTrue(cert["hostname_match"])
                    self.assertEqual(cert["key_type"], "EC")
                    self.assertIn("IP:127.0.0.1", cert["sans"])
                    self.assertGreater(cert["days_left"], 30)
                    self.assertEqual(body["hsts"]["max_age"], 63072000)
                    self.assertTrue(body["hsts"]["include_subdomains"])
                    self.assertEqual(body["findings"], [])
                    self.assertEqual(body["grade"], "A+")
                    self.assertEqual(body["protocol"], "TLSv1.3")

    def test_legacy_protocols_and_weak_ciphers_of_an_openssl_s_server(self):
        with SServer() as server:
            body = self.tls(server.url("/"))
        self.assertIsNone(body["error"], body)
        self.assertTrue(body["protocols"]["TLSv1.0"], body["protocol_probes"])
        self.assertTrue(body["protocols"]["TLSv1.1"])
        self.assertTrue(body["protocols"]["TLSv1.2"])
        groups = {c["group"]: c for c in body["weak_ciphers"]}
        self.assertTrue(groups["null"]["offered"], groups)
        self.assertIn("NULL", groups["null"]["cipher"])
        self.assertTrue(groups["anonymous"]["offered"])
        self.assertTrue(groups["cbc-sha1"]["offered"])
        found = {f["check"]: f for f in body["findings"]}
        legacy = found["tls-legacy-protocol"]
        self.assertEqual(legacy["severity"], "medium")
        self.assertEqual(legacy["owasp"], "A02:2021")
        self.assertIn("TLSv1.0 handshake accepted", " ".join(e["excerpt"] for e in legacy["evidence"]))
        self.assertEqual(found["tls-weak-cipher-null"]["severity"], "high")
        self.assertEqual(found["tls-weak-cipher-anonymous"]["severity"], "high")
        self.assertEqual(found["tls-weak-cipher-cbc-sha1"]["severity"], "info")
        self.assertIn("tls-hsts-missing", found)
        self.assertEqual(body["grade"], "F")

    def test_an_expired_certificate(self):
        cert, key = make_cert(self.tmp, "expired", days=(-60, -2))
        with PyTlsSite(cert, key) as site:
            body = self.tls(site.url("/"))
        self.assertLess(body["certificate"]["days_left"], 0)
        found = {f["check"]: f for f in body["findings"]}
        self.assertEqual(found["tls-cert-expired"]["severity"], "high")
        self.assertNotIn("tls-untrusted-certificate", found)  # expired, not untrusted
        self.assertEqual(body["grade"], "F")

    def test_a_certificate_for_another_host(self):
        cert, key = make_cert(self.tmp, "wrong", sans=("DNS:wrong.example",))
        with PyTlsSite(cert, key) as site:
            body = self.tls(site.url("/"))
        self.assertFalse(body["certificate"]["hostname_match"])
        self.assertTrue(body["certificate"]["verified"])
        found = {f["check"]: f for f in body["findings"]}
        self.assertEqual(found["tls-hostname-mismatch"]["cwe"], 297)
        self.assertEqual(found["tls-hostname-mismatch"]["severity"], "high")

    def test_a_self_signed_certificate(self):
        cert, key = make_cert(self.tmp, "selfsigned", self_signed=True)
        with PyTlsSite(cert, key) as site:
            body = self.tls(site.url("/"))
        self.assertFalse(body["certificate"]["verified"])
        self.assertTrue(body["certificate"]["self_signed"])
        found = {f["check"]: f for f in body["findings"]}
        self.assertEqual(found["tls-untrusted-certificate"]["title"], "Self-signed certificate")
        self.assertEqual(found["tls-untrusted-certificate"]["cwe"], 295)

    def test_a_small_key_signed_with_sha1(self):
        cert, key = make_sha1_cert(self.tmp, "weak", 1024, 20)
        # Security level 0 lets the server load a 1024-bit key.
        with PyTlsSite(cert, key, hsts="max-age=600", ciphers="ECDHE+AESGCM:@SECLEVEL=0") as site:
            body = self.tls(site.url("/"))
        c = body["certificate"]
        self.assertEqual((c["key_type"], c["key_bits"]), ("RSA", 1024))
        self.assertEqual(c["signature_algorithm"], "ecdsa-with-SHA1")
        self.assertTrue(c["verified"], c)
        found = {f["check"]: f for f in body["findings"]}
        self.assertEqual(found["tls-weak-key"]["severity"], "medium")
        self.assertEqual(found["tls-weak-signature"]["severity"], "medium")
        self.assertEqual(found["tls-cert-expiring"]["severity"], "medium")
        self.assertEqual(found["tls-hsts-short"]["severity"], "low")
        self.assertEqual(body["grade"], "B")

    def test_an_http_target_has_no_tls_and_is_not_an_error(self):
        with dc.FixtureServer({"/": (200, {}, "plain")}) as fx:
            body = self.tls(fx.url("/"))
        self.assertEqual(body["tls"], "not offered")
        self.assertFalse(body["https"])
        self.assertIsNone(body["error"])
        self.assertEqual(body["findings"], [])

    def test_an_unreachable_target_says_so(self):
        started = time.monotonic()
        body = self.tls("https://127.0.0.1:%d/" % dc.closed_port())
        self.assertLess(time.monotonic() - started, 30)
        self.assertIsNone(body["tls"])
        self.assertIn("no TLS handshake", body["error"])
        self.assertEqual(body["findings"], [])

    def test_target_validation_and_auth(self):
        for prefix in ("/api/v1", "/api"):
            r = dc.get(prefix + "/audit/tls/" + dc.enc("ftp://example.com/"), token=self.user.token)
            self.assertValidation(r, [("url_scheme", ["path", "target_url"])])
            self.assertUnauthenticated(dc.get(prefix + "/audit/tls/example.com"))

    def test_the_full_audit_has_the_tls_part(self):
        cert, key = make_cert(self.tmp, "audited", rsa_bits=1024)
        with PyTlsSite(cert, key, ciphers="ECDHE+AESGCM:@SECLEVEL=0") as site:
            r = dc.post("/api/audit/%s" % dc.enc(site.url("/")), token=self.user.token, timeout=120)
        self.assertEqual(r.status, 200, r.text)
        body = r.json
        self.assertEqual(body["tls"]["protocols"]["TLSv1.3"], True)
        self.assertEqual(body["tls"]["certificate"]["key_bits"], 1024)
        self.assertIn("tls-weak-key", checks(body))
        self.assertFalse({"tls-hsts-missing", "tls-hsts-short"} & checks(body))  # the header grade's


if __name__ == "__main__":
    unittest.main()
