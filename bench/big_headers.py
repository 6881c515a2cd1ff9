#!/usr/bin/env python3
"""Big request headers against `dealership serve`: memory stays bounded.

Starts the binary on a fresh data directory (open-file limit 8192), then:

1. held: N connections (default 2,000) each send 31 KB of headers, all but the
   blank line that ends them, and wait (the server holds each until its
   header timeout, 10 s);
2. refused: M connections (default 1,500) each send 300 KB of headers (the
   server answers 431 once 32 KB have come and closes).

Prints the server's resident memory (VmRSS) at rest, at the peak of each phase
(sampled every 100 ms) and after the connections are gone, and whether a
visitor is still served. The budget (issue 27): under 150 MB at the peak, back
near the resting size afterwards.

    bench/big_headers.py [--bin target/release/dealership] [--held 2000] [--refused 1500]

Only the standard library; Linux (reads /proc). Everything stays on 127.0.0.1.
"""

import argparse
import os
import resource
import socket
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from slow_clients import free_port, half_sent, proc_figures, start, visit  # noqa: E402


def filler(size):
    lines, n = [b"GET / HTTP/1.1\r\nHost: x\r\n"], 0
    total = len(lines[0])
    while total < size:
        line = b"X-Filler-%d: %s\r\n" % (n, b"a" * 1000)
        lines.append(line)
        total += len(line)
        n += 1
    return b"".join(lines)


class Peak:
    """Samples the server's VmRSS every 100 ms while running."""

    def __init__(self, pid):
        self.pid, self.peak, self.stop = pid, 0, threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        while not self.stop.is_set():
            self.peak = max(self.peak, proc_figures(self.pid)[0])
            time.sleep(0.1)

    def done(self):
        self.stop.set()
        self.thread.join()
        return max(self.peak, proc_figures(self.pid)[0])


def refused(port, count):
    headers = filler(300 * 1024) + b"\r\n"
    answered = reset = 0
    for _ in range(count):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
                try:
                    s.sendall(headers)
                except OSError:
                    pass
                try:
                    answer = s.recv(64)
                except OSError:
                    answer = b""
                if answer.startswith(b"HTTP/1.1 431"):
                    answered += 1
                else:
                    reset += 1
        except OSError:
            reset += 1
    return answered, reset


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default=os.path.join(here, "..", "target", "release", "dealership"))
    parser.add_argument("--held", type=int, default=2000)
    parser.add_argument("--refused", type=int, default=1500)
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(max(soft, args.held + 500), hard), hard))

    with tempfile.TemporaryDirectory() as data:
        port = free_port()
        child = start(args.bin, data, port, 8192)
        rest = proc_figures(child.pid)[0]
        print(f"at rest: {rest} MB")

        peak = Peak(child.pid)
        sockets = half_sent(port, args.held, filler(31 * 1024))
        time.sleep(1)
        served = visit(port) is not None
        top = peak.done()
        print(f"held: {len(sockets)} connections with 31 KB of headers each: peak {top} MB, "
              f"a visitor served beside them: {served}")
        for s in sockets:
            s.close()
        time.sleep(2)
        print(f"  after they closed: {proc_figures(child.pid)[0]} MB")

        peak = Peak(child.pid)
        started = time.monotonic()
        answered, reset = refused(port, args.refused)
        top = peak.done()
        print(f"refused: {args.refused} connections with 300 KB of headers each in "
              f"{time.monotonic() - started:.1f} s: {answered} answered 431, {reset} reset "
              f"before reading it; peak {top} MB")
        time.sleep(2)
        after = proc_figures(child.pid)[0]
        served = visit(port) is not None
        print(f"  afterwards: {after} MB, a visitor served: {served}")
        child.terminate()
        child.wait(timeout=20)


if __name__ == "__main__":
    main()
