"""gunicorn's settings for `make run` and the docker-compose web service (read from the working folder); flags on the
command line (bind, workers, threads) come on top."""

# One line per request on stdout: time, client, method, path (never the query string, which may carry a token),
# status, duration in milliseconds and the request id (app.core.request_id), e.g.
# [23/Nov/2026:12:00:00 +0300] 127.0.0.1 GET /api/health 200 4ms rid=3f2a...
accesslog = "-"
access_log_format = "%(t)s %(h)s %(m)s %(U)s %(s)s %(M)sms rid=%({x-request-id}o)s"

# gunicorn 25+ opens a control socket at one path per user ($XDG_RUNTIME_DIR or ~/.gunicorn/gunicorn.ctl), so two
# instances (two `make run` in different folders) would share it. Nothing here uses gunicornc: open none.
control_socket_disable = True
# How long a kept-alive connection waits for the next request. gunicorn's default (2 s) is about a clerk's pause between
# two clicks: the load test's clients (issue 32) reused connections the server was closing at that moment and got
# "connection reset" (a browser resends such a request, a script does not). Behind a proxy, keep its upstream
# keep-alive shorter than this, so the proxy closes first.
keepalive = 5


def on_starting(_server) -> None:
    """Check the production settings once, in the master, before any worker boots: a missing one stops gunicorn with
    one message (a RuntimeError here is printed as "Error: ..." with exit status 1) instead of one per worker."""
    from dotenv import load_dotenv

    from app.config import check_production, from_env

    load_dotenv()
    check_production(from_env())


def post_worker_init(_worker) -> None:
    """Once the worker has loaded the app, its objects (modules, mappers, compiled statements, some 290,000 containers)
    are moved out of the garbage collector's reach (`gc.freeze`): they live as long as the process, and each full
    collection walked them all, a pause of 100-300 ms for every request of the worker on a 2 vCPU machine (issue 32's
    slow tail). What requests allocate afterwards is collected as before."""
    import gc

    gc.freeze()
