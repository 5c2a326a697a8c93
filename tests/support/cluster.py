"""Two machines' worth of the product: two nodes, each the launcher of `make run` (gunicorn web, RQ worker,
scheduler) on a loopback port of its own, over one PostgreSQL database, one Redis, one SMTP catcher, one S3 bucket
(moto) and one set of upstream sandboxes, so a test can count what reached each shared service.

A client reaches a node as a load balancer would pass its requests on: with `X-Forwarded-For` (its own address, so
rate limits count per client) and `X-Forwarded-Host`/`-Proto` naming the public site (`PUBLIC_URL`, the nodes'
BASE_URL). Every node process is started in a process group of its own; RQ's work horses leave their parent's
group, so killing a node walks its process tree first.
"""

from __future__ import annotations

import email
import email.policy
import itertools
import os
import signal
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.utils import parseaddr
from pathlib import Path
from typing import Any

import boto3
import redis
import requests
import sqlalchemy as sa
from botocore.config import Config
from moto.server import ThreadedMotoServer

from app.notifications.local_mail import MailCatcher
from tests.support.processes import Process, wait_until
from tests.support.product import flushed_redis, fresh_database, product_environment
from tests.support.redis_server import free_port
from tests.support.s3 import create_public_bucket
from tests.support.upstreams import Upstreams

PUBLIC_HOST = "parcabul.test"
PUBLIC_URL = f"http://{PUBLIC_HOST}"
START_SECONDS = 120  # two nodes migrate, seed and import the whole app at once on two shared CPUs
S3_KEY, S3_SECRET, S3_REGION, S3_BUCKET = "cluster-key", "cluster-secret-never-logged", "us-east-1", "schemas"
_client_numbers = itertools.count(1)


@dataclass
class Node:
    name: str
    url: str
    process: Process

    def processes(self) -> set[tuple[int, int]]:
        """The launcher and every process under it (web master and workers, RQ worker and its horse, scheduler), each
        as (pid, start time), so a pid the system gave to another process since is never mistaken for one of them."""
        if not self.process.alive:
            return set()
        return {(pid, started) for pid in _descendants(self.process.pid) if (started := _start_time(pid)) is not None}

    def kill(self) -> set[tuple[int, int]]:
        """SIGKILL every process of the node at once, as a machine that loses power; returns them."""
        processes = self.processes()
        for pid, _started in processes:
            with suppress(ProcessLookupError):
                os.killpg(pid, signal.SIGKILL)  # the launcher's group, and each work horse's own
            with suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        self.process.stop(timeout=0)  # reaps the launcher (our child)
        wait_until(lambda: not _any_alive(processes), 10, f"every process of node {self.name} is gone")
        return processes

    def stop(self) -> None:
        """Stop the node as Ctrl-C would, then kill whatever of it outlived that."""
        processes = self.processes()
        self.process.stop(timeout=20)
        for pid, started in processes:
            if _start_time(pid) == started:
                with suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)

    def health(self) -> tuple[int, dict[str, Any]]:
        try:
            response = requests.get(f"{self.url}/api/health", timeout=5)
        except requests.RequestException:  # not listening yet, or gone
            return 0, {}
        return response.status_code, response.json()


@dataclass
class Client:
    """A browser or API client behind the load balancer, with an address of its own."""

    address: str = field(default_factory=lambda: "10.27.{}.{}".format(*divmod(next(_client_numbers), 250)))

    def __post_init__(self) -> None:
        self.http = requests.Session()
        self.http.headers.update(
            {
                "X-Forwarded-For": self.address,
                "X-Forwarded-Host": PUBLIC_HOST,
                "X-Forwarded-Proto": "http",
                "Origin": PUBLIC_URL,  # the cookie API's same-site check sees the public site
            }
        )

    def call(self, node: Node, method: str, path: str, **kwargs: Any) -> requests.Response:
        return self.http.request(method, node.url + path, timeout=60, allow_redirects=False, **kwargs)


@dataclass(frozen=True)
class Mail:
    to: str
    subject: str
    text: str
    received_at: datetime


class MailBox:
    """What the shared SMTP catcher received."""

    def __init__(self, catcher: MailCatcher) -> None:
        self.catcher = catcher

    def received(self) -> list[Mail]:
        return [_read_mail(path) for path in sorted(self.catcher.directory.glob("*.eml"))]


def _read_mail(path: Path) -> Mail:
    message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
    return Mail(
        to=parseaddr(message["To"])[1],
        subject=str(message["Subject"]),
        text=message.get_body(preferencelist=("plain",)).get_content(),
        received_at=datetime.fromtimestamp(path.stat().st_mtime, UTC),
    )


@dataclass
class Cluster:
    nodes: dict[str, Node]
    database_url: str
    redis_url: str
    upstreams: Upstreams
    mailbox: MailBox
    s3: Any  # a boto3 client of the shared bucket's server
    ready_at: datetime | None = None  # when every node served and every scheduler had registered its schedule

    def engine(self) -> sa.Engine:
        return sa.create_engine(self.database_url)

    def schedulers(self) -> list[bytes]:
        """The running rq-schedulers (each registers itself, with an expiry it renews, once its schedule is in)."""
        return redis.Redis.from_url(self.redis_url).keys("rq:scheduler_instance:*")

    def stored_pictures(self) -> list[str]:
        listing = self.s3.list_objects_v2(Bucket=S3_BUCKET)
        return [item["Key"] for item in listing.get("Contents", [])]

    def logs(self) -> str:
        return "\n".join(f"--- node {node.name} ---\n{node.process.output()[-6000:]}" for node in self.nodes.values())


@contextmanager
def running_cluster(tmp_path: Path, names: tuple[str, ...] = ("a", "b"), **settings: str) -> Iterator[Cluster]:
    """Start the shared services and one node per name with `settings`; stop everything afterwards."""
    with ExitStack() as stack:
        database_url = stack.enter_context(fresh_database(tmp_path))
        redis_url = stack.enter_context(flushed_redis())
        upstreams = Upstreams.start()
        stack.callback(upstreams.stop)
        catcher = MailCatcher(tmp_path / "mailbox").start()
        stack.callback(catcher.stop)
        s3_endpoint, s3 = _start_s3(stack)
        shared = {
            **upstreams.settings,
            "MAIL_URL": catcher.url,
            "BASE_URL": PUBLIC_URL,
            "PROXY_COUNT": "1",
            "STORAGE_BACKEND": "s3",
            "S3_BUCKET": S3_BUCKET,
            "S3_ENDPOINT_URL": s3_endpoint,
            "S3_REGION": S3_REGION,
            "S3_ACCESS_KEY_ID": S3_KEY,
            "S3_SECRET_ACCESS_KEY": S3_SECRET,
            "STORAGE_URL": f"{s3_endpoint}/{S3_BUCKET}",
            **settings,
        }
        nodes = {name: _start_node(tmp_path, name, database_url, redis_url, shared) for name in names}
        stack.callback(_stop_all, list(nodes.values()))
        cluster = Cluster(nodes, database_url, redis_url, upstreams, MailBox(catcher), s3)
        try:
            for node in nodes.values():
                wait_until(lambda node=node: _serving(node), START_SECONDS, f"node {node.name} serves")
            wait_until(lambda: len(cluster.schedulers()) == len(nodes), 30, "every node's scheduler is registered")
            cluster.ready_at = datetime.now(UTC)
            yield cluster
        except BaseException:
            print(cluster.logs())  # shown with the failure
            raise


def _start_node(tmp_path: Path, name: str, database_url: str, redis_url: str, shared: dict[str, str]) -> Node:
    folder = tmp_path / f"node-{name}"
    folder.mkdir()
    port = free_port()
    env = product_environment(folder, database_url, redis_url, port, shared)
    process = Process(["-m", "app.launcher"], env, folder / "node.log")
    return Node(name, f"http://127.0.0.1:{port}", process)


def _stop_all(nodes: list[Node]) -> None:
    """Stop the nodes side by side (each may wait for its web server's open connections)."""
    with ThreadPoolExecutor(max_workers=len(nodes)) as pool:
        list(pool.map(Node.stop, nodes))


def _serving(node: Node) -> bool:
    if not node.process.alive:
        raise AssertionError(f"node {node.name} exited:\n{node.process.output()[-4000:]}")
    return node.health()[0] == 200


def _start_s3(stack: ExitStack) -> tuple[str, Any]:
    """An S3-compatible server (moto) on loopback with a bucket anyone may read, as schema pictures are served."""
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    stack.callback(server._server.server_close)  # stop() leaves the listening socket open
    stack.callback(server.stop)
    host, port = server.get_host_and_port()
    endpoint = f"http://{host}:{port}"
    session = boto3.session.Session(aws_access_key_id=S3_KEY, aws_secret_access_key=S3_SECRET, region_name=S3_REGION)
    s3 = session.client("s3", endpoint_url=endpoint, config=Config(s3={"addressing_style": "path"}))
    create_public_bucket(s3, S3_BUCKET)
    return endpoint, s3


def _descendants(root: int) -> set[int]:
    """`root` and every process below it, from the parent ids in /proc."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").glob("[0-9]*"):
        fields = _stat(int(entry.name))
        if fields:
            children.setdefault(int(fields[1]), []).append(int(entry.name))
    found: set[int] = set()
    todo = [root]
    while todo:
        pid = todo.pop()
        if pid not in found:
            found.add(pid)
            todo.extend(children.get(pid, ()))
    return found


def _stat(pid: int) -> list[str] | None:
    """The fields of /proc/<pid>/stat after the command name (state, parent, group, ...); None when it is gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None


def _start_time(pid: int) -> int | None:
    fields = _stat(pid)
    return int(fields[19]) if fields and fields[0] != "Z" else None  # a zombie is dead, though not reaped yet


def _any_alive(processes: set[tuple[int, int]]) -> bool:
    return any(_start_time(pid) == started for pid, started in processes)
