#!/usr/bin/env python3
"""Slow clients against `dealership serve`: half-sent requests, then visitors.

Starts the binary on a fresh data directory with an open-file limit of 1024
(as a default systemd service has), opens N connections that send the start of
a request and nothing more ("GET / HTTP/1.1\\r\\nHost: x\\r\\n"), then measures:

- how long normal visitors wait for GET /robots.txt beside them;
- the server's resident memory and open files;
- when the half-sent connections are closed (the header timeout);
- how long SIGTERM takes with N half-sent connections open.

    bench/slow_clients.py [--bin target/release/dealership] [--half-sent 3000]

Only the standard library; Linux (reads /proc). Everything stays on 127.0.0.1.
"""

import argparse
import os
import resource
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time

HALF = b"GET / HTTP/1.1\r\nHost: x\r\n"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def visit(port, timeout=15.0):
    """Seconds until a whole answer to GET /robots.txt, or None."""
    started = time.monotonic()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
            s.settimeout(timeout)
            s.sendall(b"GET /robots.txt HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
            answer = b""
            while chunk := s.recv(65536):
                answer += chunk
    except OSError:
        return None
    if not answer.startswith(b"HTTP/1.1 200"):
        return None
    return time.monotonic() - started


def half_sent(port, count, start=HALF):
    """`count` connections that each send `start` (a request's beginning)."""
    opened = []
    for _ in range(count):
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=2)
            s.sendall(start)
            s.setblocking(False)
            opened.append(s)
        except OSError:
            break
    return opened


def still_open(sockets):
    alive = 0
    for s in sockets:
        try:
            if s.recv(1024) == b"":
                continue
        except BlockingIOError:
            alive += 1
            continue
        except OSError:
            continue
    return alive


def proc_figures(pid):
    rss = 0
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                rss = int(line.split()[1]) // 1024
    files = len(os.listdir(f"/proc/{pid}/fd"))
    return rss, files


def limit_files(n):
    def apply():
        resource.setrlimit(resource.RLIMIT_NOFILE, (n, n))
    return apply


def start(binary, data, port, nofile):
    env = {k: v for k, v in os.environ.items() if not k.startswith("DEALERSHIP_")}
    env["RUST_LOG"] = "warn"
    child = subprocess.Popen(
        [binary, "--data", data, "serve", "--listen", f"127.0.0.1:{port}"],
        env=env, cwd=data, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL, preexec_fn=limit_files(nofile),
    )
    deadline = time.monotonic() + 30
    while visit(port, 2) is None:
        if time.monotonic() > deadline or child.poll() is not None:
            sys.exit("the server did not start")
        time.sleep(0.05)
    return child


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default=os.path.join(here, "..", "target", "release", "dealership"))
    parser.add_argument("--half-sent", type=int, default=3000)
    parser.add_argument("--visitors", type=int, default=20)
    parser.add_argument("--server-nofile", type=int, default=1024)
    args = parser.parse_args()

    need = args.half_sent + 200
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < need:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(need, hard), hard))

    with tempfile.TemporaryDirectory() as data:
        port = free_port()
        child = start(args.bin, data, port, args.server_nofile)
        rss0, files0 = proc_figures(child.pid)

        opened_at = time.monotonic()
        slow = half_sent(port, args.half_sent)
        time.sleep(0.5)
        waits = [visit(port) for _ in range(args.visitors)]
        served = [w for w in waits if w is not None]
        rss1, files1 = proc_figures(child.pid)

        closed_at = None
        while time.monotonic() - opened_at < 30:
            if still_open(slow) == 0:
                closed_at = time.monotonic() - opened_at
                break
            time.sleep(0.25)
        for s in slow:
            s.close()

        slow = half_sent(port, args.half_sent)
        time.sleep(0.5)
        term_at = time.monotonic()
        child.send_signal(signal.SIGTERM)
        try:
            code = child.wait(timeout=60)
            took = time.monotonic() - term_at
        except subprocess.TimeoutExpired:
            child.kill()
            code, took = None, None
        for s in slow:
            s.close()

    print(f"half-sent connections opened:   {args.half_sent} (server open-file limit {args.server_nofile})")
    print(f"visitors served:                {len(served)} of {len(waits)}")
    if served:
        print(f"visitor wait p50 / max:         {statistics.median(served) * 1000:.1f} ms / {max(served) * 1000:.1f} ms")
    print(f"server memory before / during:  {rss0} MB / {rss1} MB")
    print(f"server open files before / during: {files0} / {files1}")
    print(f"half-sent all closed after:     {'%.1f s' % closed_at if closed_at else 'not within 30 s'}")
    print(f"SIGTERM with half-sent open:    {'exit %s after %.2f s' % (code, took) if took is not None else 'still running after 60 s'}")


if __name__ == "__main__":
    main()
