"""What a request costs the web process, in instructions: `python -m bench.instructions [requests]`.

Times of a request on a shared 2-CPU machine vary by 15-25 % from run to run, so a change of a few per cent to the
signed-in floor cannot be seen in them. Instructions counted by valgrind's callgrind repeat within about 0.1 % (the
same code, inputs and libraries). For each kind of request (the bare Flask route of the decode benchmark, the app
shell, the cached decode) the run starts this module again under `valgrind --tool=callgrind --instr-atstart=no`:
it builds the decode benchmark's app (BENCH_DATABASE_URL / BENCH_REDIS_URL as for `bench.decode`), signs the dealer
in, caches the Golf, sends 200 requests to warm up, then counts REQUESTS more through the WSGI app in this process
(the test client, one thread), counting switched on and off around them with `callgrind_control`. Redis and
PostgreSQL work in their own processes and is not counted; the test client's own work is, for every kind alike.
Printed: instructions per request and the app's over the bare route's. For reading, no target (bench/README.md).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable

KINDS = ("bare", "shell", "decode")
DEFAULT_REQUESTS = 300
WARM_UP = 200
KIND_VARIABLE = "BENCH_INSTRUCTIONS_KIND"
COUNTED = re.compile(r"I\s+refs:\s+([\d,]+)")
VALGRIND = shutil.which("valgrind")
CALLGRIND_CONTROL = shutil.which("callgrind_control")


def main(requests: int) -> int:
    if VALGRIND is None or CALLGRIND_CONTROL is None:
        print("valgrind is not installed (Debian package valgrind): nothing counted")
        return 2
    counts = {kind: _counted(kind, requests) / requests for kind in KINDS}
    print(f"instructions a request, {requests} requests each, in process (test client, one thread):")
    for kind, count in counts.items():
        print(f"  {kind:7s} {count:12,.0f}")
    print(f"  shell / bare  {counts['shell'] / counts['bare']:.2f}")
    print(f"  decode / bare {counts['decode'] / counts['bare']:.2f}")
    print(f"  decode / shell {counts['decode'] / counts['shell']:.2f}")
    return 0


def _counted(kind: str, requests: int) -> int:
    """Instructions of `requests` requests of `kind`, in a child process under callgrind."""
    with tempfile.TemporaryDirectory(prefix="bench-instructions-") as scratch:
        command = [
            str(VALGRIND),
            "--tool=callgrind",
            "--instr-atstart=no",
            f"--callgrind-out-file={scratch}/callgrind.out",
            sys.executable,
            "-m",
            "bench.instructions",
            str(requests),
        ]
        environment = {**os.environ, KIND_VARIABLE: kind}
        done = subprocess.run(command, env=environment, capture_output=True, text=True)  # noqa: S603 - our own command
    found = COUNTED.search(done.stderr)
    if done.returncode != 0 or found is None:
        raise RuntimeError(f"{kind}: the counted run failed ({done.returncode}):\n{done.stderr[-3000:]}")
    return int(found.group(1).replace(",", ""))


def count_in_this_process(kind: str, requests: int) -> None:
    """The child: the app built, the requests of `kind` sent with counting on around them."""
    from bench.decode import bare_app
    from bench.floor import signed_in
    from bench.stack import DECODE_PATH

    with signed_in("decode" if kind == "decode" else "shell") as (app, shell, send):
        if kind == "bare":
            client = bare_app(app.json.dumps(shell.body).encode()).test_client()
            send = _sender(client.post, DECODE_PATH)
        _counting(send, requests)


def _sender(post: Callable, path: str) -> Callable[[], object]:
    from app.sources.sandbox.catalog import VIN_GOLF

    return lambda: post(path, json={"vin": VIN_GOLF}, headers={"Origin": "http://localhost"})


def _counting(send: Callable[[], object], requests: int) -> None:
    for _ in range(WARM_UP):
        send()
    _callgrind("on")
    for _ in range(requests):
        send()
    _callgrind("off")


def _callgrind(switch: str) -> None:
    command = [str(CALLGRIND_CONTROL), "-i", switch, str(os.getpid())]
    subprocess.run(command, check=True, capture_output=True)  # noqa: S603 - valgrind's own tool, on this process


if __name__ == "__main__":
    count = int(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_REQUESTS
    if os.environ.get(KIND_VARIABLE):
        count_in_this_process(os.environ[KIND_VARIABLE], count)
    else:
        sys.exit(main(count))
