"""The embedded Redis-compatible store used when REDIS_URL is not set.

fakeredis's TCP server speaks the Redis protocol, so the web process, the RQ worker and the scheduler share one
store exactly as they would share a real Redis. Two faults of its request handler are corrected here:
- CLIENT INFO reports addresses as Python tuples ("addr=('127.0.0.1', 5000)"), which redis-py cannot parse and on
  which the RQ worker stops at start-up; Redis reports "host:port".
- A command answered with an error (RQ asks for INFO, which fakeredis lacks) closes the connection instead of
  returning the error, so the client's next command fails.
It also sets TCP_NODELAY, as Redis does: without it every pipelined reply waits for Nagle's algorithm and the
client's delayed ACK (about 40 ms each). And it reads what the socket holds in one call and hands it to the fake
server whole, where fakeredis's handler reads line by line and tries a read that finds nothing before each wait:
a round trip took about twice a real Redis's, on every request's session check.
"""

from __future__ import annotations

import logging
import select
import socket
import threading

import redis
from fakeredis import TcpFakeServer
from fakeredis._clients._tcp_server import TCPFakeRequestHandler

log = logging.getLogger(__name__)

_POLL_SECONDS = 0.01  # as fakeredis's handler: how long a reply pushed without a request (pub/sub) may wait
_READ_BYTES = 65536


class _RequestHandler(TCPFakeRequestHandler):
    def setup(self) -> None:
        super().setup()
        self.request.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        info = self.current_client.get_socket()._client_info
        for key in ("addr", "laddr"):
            if isinstance(info.get(key), tuple):
                host, port = info[key][:2]
                info[key] = f"{host}:{port}"
        self.current_client.read_response = _errors_as_replies(self.current_client.read_response)

    def handle(self) -> None:
        client, connection = self.current_client, self.connection
        fake = client.get_socket()
        while not self.server._shutdown_event.is_set():
            try:
                if client.can_read():  # a reply, or a message pushed to a subscriber
                    self.writer.dump(client.read_response())
                    continue
                if not select.select([connection], [], [], _POLL_SECONDS)[0]:
                    continue
                data = connection.recv(_READ_BYTES)
                if not data:
                    break  # the client closed the connection
                fake.sendall(data)
            except BlockingIOError:
                continue
            except ConnectionError:
                break
            except Exception as error:  # what fakeredis's own handler does: report it and close
                self.writer.dump(error)
                break


def _errors_as_replies(read_response):
    def read(*args, **kwargs):
        try:
            return read_response(*args, **kwargs)
        except redis.ResponseError as exc:
            return exc

    return read


class EmbeddedRedis:
    """A Redis-compatible server on loopback, served from a daemon thread of this process."""

    def __init__(self, host: str = "127.0.0.1", port: int = 0) -> None:
        self._server = TcpFakeServer((host, port), server_type="redis")
        self._server.RequestHandlerClass = _RequestHandler
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, name="embedded-redis", daemon=True)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"redis://{host}:{port}/0"

    def start(self) -> EmbeddedRedis:
        self._thread.start()
        log.info("embedded Redis-compatible store listening on %s", self.url)
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()


_shared: EmbeddedRedis | None = None
_shared_lock = threading.Lock()


def shared_url() -> str:
    """Start (once per process) the embedded store and return its URL."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = EmbeddedRedis().start()
        return _shared.url
