"""The embedded Redis-compatible store behaves like Redis where our libraries depend on it."""

import socket
import time

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


def test_a_pipeline_is_answered_whole_and_in_order(embedded):
    pipe = embedded.pipeline(transaction=False)
    for number in range(200):
        pipe.set(f"key:{number}", number)
        pipe.get(f"key:{number}")

    replies = pipe.execute()

    assert replies == [value for number in range(200) for value in (True, str(number).encode())]


def test_a_command_that_arrives_in_pieces_is_answered_once_whole(embedded):
    port = embedded.connection_pool.connection_kwargs["port"]
    with socket.create_connection(("127.0.0.1", port)) as raw:
        command = b"*3\r\n$3\r\nSET\r\n$5\r\npiece\r\n$2\r\nok\r\n*2\r\n$3\r\nGET\r\n$5\r\npiece\r\n"
        for cut in (5, 17, 30):
            raw.sendall(command[:cut])
            command = command[cut:]
            time.sleep(0.05)
        raw.sendall(command)

        replies = _read_until(raw, b"ok\r\n")

    assert replies.startswith(b"+OK\r\n")
    assert replies.removeprefix(b"+OK\r\n") in (b"+ok\r\n", b"$2\r\nok\r\n")  # a simple or a bulk string


def test_a_subscriber_receives_what_is_published(embedded):
    subscriber = embedded.pubsub()
    subscriber.subscribe("news")
    assert subscriber.get_message(timeout=1)["type"] == "subscribe"

    embedded.publish("news", "haber")

    message = subscriber.get_message(timeout=1)
    assert message is not None and message["data"] == b"haber"
    subscriber.close()


def _read_until(raw: socket.socket, end: bytes) -> bytes:
    raw.settimeout(2)
    seen = b""
    while not seen.endswith(end):
        seen += raw.recv(1024)
    return seen
