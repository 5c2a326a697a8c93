"""Every response carries a request id (the one gunicorn's access log prints): the caller's when it is a plain token."""

import re


def test_each_response_gets_its_own_request_id(client):
    first = client.get("/api/health").headers["X-Request-ID"]
    second = client.get("/missing-page").headers["X-Request-ID"]

    assert re.fullmatch(r"[0-9a-f]{32}", first) and re.fullmatch(r"[0-9a-f]{32}", second)
    assert first != second


def test_a_proxys_plain_request_id_is_kept(client):
    response = client.get("/api/health", headers={"X-Request-ID": "lb-7f3a9c21.e4"})

    assert response.headers["X-Request-ID"] == "lb-7f3a9c21.e4"


def test_a_request_id_that_could_forge_a_log_line_is_replaced(client):
    response = client.get("/api/health", headers={"X-Request-ID": "abc def 200 1ms rid=forged"})

    assert re.fullmatch(r"[0-9a-f]{32}", response.headers["X-Request-ID"])
