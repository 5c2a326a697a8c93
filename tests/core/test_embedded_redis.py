"""The embedded Redis-compatible store behaves like Redis where our libraries depend on it."""

import pytest
import redis

from app.core.embedded_redis import EmbeddedRedis


@pytest.fixture
def embedded():
    server = EmbeddedRedis().start()
    yield redis.Redis.from_url(server.url)
    server.stop()


def test_client_info_reports_host_and_port(embedded):
    info = embedded.client_info()

    host, port = info["addr"].rsplit(":", 1)
    assert host == "127.0.0.1" and port.isdigit()


def test_an_error_reply_keeps_the_connection_open(embedded):
    embedded.set("k", "v")
    with pytest.raises(redis.ResponseError):
        embedded.lpush("k", "x")  # WRONGTYPE

    connection = embedded.connection_pool.get_connection()
    connection.send_command("INCR", "k")
    with pytest.raises(redis.ResponseError):
        connection.read_response()
    connection.send_command("GET", "k")
    assert connection.read_response() == b"v"
    embedded.connection_pool.release(connection)


def test_processes_share_one_store(embedded):
    other = redis.Redis.from_url(
        embedded.connection_pool.connection_kwargs
        and f"redis://127.0.0.1:{embedded.connection_pool.connection_kwargs['port']}/0"
    )
    embedded.set("shared", "yes")

    assert other.get("shared") == b"yes"
