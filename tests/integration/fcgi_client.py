"""A minimal FastCGI client (the responder role, one request per connection) that talks to
dozor-fcgi's socket directly, past nginx: it reaches the backend's own limits, which nginx's
stricter ones otherwise hide."""

import socket
import struct

FCGI_VERSION = 1
BEGIN_REQUEST, END_REQUEST, PARAMS, STDIN, STDOUT, STDERR = 1, 3, 4, 5, 6, 7
RESPONDER = 1


def _record(kind: int, content: bytes, request_id: int = 1) -> bytes:
    padding = (8 - len(content) % 8) % 8
    return struct.pack(">BBHHBx", FCGI_VERSION, kind, request_id, len(content), padding) + content + b"\0" * padding


def _length(n: int) -> bytes:
    return bytes([n]) if n < 128 else struct.pack(">I", n | 0x80000000)


def _params(params: dict) -> bytes:
    out = b""
    for k, v in params.items():
        k, v = k.encode(), str(v).encode()
        out += _length(len(k)) + _length(len(v)) + k + v
    return out


def _stream(kind: int, data: bytes) -> bytes:
    out = b"".join(_record(kind, data[i:i + 65535]) for i in range(0, len(data), 65535))
    return out + _record(kind, b"")


class Answer:
    def __init__(self, raw: bytes):
        head, _, self.body = raw.partition(b"\r\n\r\n")
        self.headers = {}
        for line in head.decode("latin-1").split("\r\n"):
            name, _, value = line.partition(":")
            self.headers[name.strip().lower()] = value.strip()
        self.status = int(self.headers.get("status", "200").split()[0])


def request(sock_path: str, method: str, uri: str, body: bytes = b"", headers: dict | None = None,
            content_length: int | None = None, timeout: float = 15, params: dict | None = None) -> Answer:
    """Sends one request; ``content_length`` may claim more than ``body`` holds. ``params`` are
    FastCGI parameters added as they are (DOZOR_NGINX_KEY, a forged REMOTE_ADDR …)."""
    path, _, query = uri.partition("?")
    extra = params or {}
    params = {
        "REQUEST_METHOD": method, "REQUEST_URI": uri, "SCRIPT_NAME": path, "DOCUMENT_URI": path,
        "QUERY_STRING": query, "SERVER_PROTOCOL": "HTTP/1.1", "REMOTE_ADDR": "127.0.0.1",
        "CONTENT_LENGTH": str(len(body) if content_length is None else content_length),
        "CONTENT_TYPE": "application/json",
    }
    for k, v in (headers or {}).items():
        params["HTTP_" + k.upper().replace("-", "_")] = v
    params.update(extra)
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(timeout)
    s.connect(sock_path)
    try:
        s.sendall(_record(BEGIN_REQUEST, struct.pack(">HB5x", RESPONDER, 0)) + _stream(PARAMS, _params(params)))
        try:
            s.sendall(_stream(STDIN, body))
        except (BrokenPipeError, ConnectionResetError):
            pass  # the backend answered without reading the body
        out = b""
        while True:
            head = _recv_exactly(s, 8)
            if head is None:
                break
            _, kind, _, length, padding = struct.unpack(">BBHHBx", head)
            content = _recv_exactly(s, length + padding) or b""
            if kind == STDOUT:
                out += content[:length]
            elif kind == END_REQUEST:
                break
        return Answer(out)
    finally:
        s.close()


def _recv_exactly(s: socket.socket, n: int) -> bytes | None:
    buf = b""
    while len(buf) < n:
        chunk = s.recv(n - len(buf))
        if not chunk:
            return None if not buf else buf
        buf += chunk
    return buf
