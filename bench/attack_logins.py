#!/usr/bin/env python3
"""Parallel wrong logins against the dealership, for bench/attack_logins.sh.

    attack_logins.py PORT one  COUNT
    attack_logins.py PORT many COUNT SECONDS [PAUSE_MS]

`one`: COUNT threads, all from 127.0.0.1, each sends one wrong login at the
same moment: even threads POST /api/admin/login, odd ones GET /api/admin/me
with wrong Basic credentials; every third uses the admin's name (`manager`),
the others names that do not exist.

`many`: COUNT threads, each from its own loopback address (127.1.x.y, so the
per-address lock does not stop the flood), send wrong logins with made-up
names one after another for SECONDS, form and Basic alternating; after a
429 each waits PAUSE_MS (default 0: a tight loop, mostly a connection flood).

Prints one JSON line: answers by status and error message, and the attack's
own latency figures (ms).
"""

import base64
import http.client
import json
import sys
import threading
import time
from collections import Counter


def request(port, source, i, n, login):
    """One wrong login; gives (status, error message, seconds)."""
    password = f"wrong-{i}-{n}"
    conn = http.client.HTTPConnection(
        "127.0.0.1", port, timeout=30, source_address=(source, 0)
    )
    started = time.monotonic()
    try:
        if i % 2 == 0:
            body = json.dumps({"login": login, "password": password})
            conn.request(
                "POST",
                "/api/admin/login",
                body=body,
                headers={"Content-Type": "application/json"},
            )
        else:
            token = base64.b64encode(f"{login}:{password}".encode()).decode()
            conn.request(
                "GET", "/api/admin/me", headers={"Authorization": f"Basic {token}"}
            )
        response = conn.getresponse()
        data = response.read()
        status = response.status
        try:
            error = json.loads(data).get("error", "")
        except ValueError:
            error = ""
    except OSError as e:
        status, error = 0, type(e).__name__
    finally:
        conn.close()
    return status, error, time.monotonic() - started


def main():
    port = int(sys.argv[1])
    mode = sys.argv[2]
    count = int(sys.argv[3])
    seconds = float(sys.argv[4]) if len(sys.argv) > 4 else 0.0
    pause = float(sys.argv[5]) / 1000 if len(sys.argv) > 5 else 0.0
    results = []
    lock = threading.Lock()
    barrier = threading.Barrier(count)

    def one(i):
        login = "manager" if i % 3 == 0 else f"guess{i}"
        barrier.wait()
        result = request(port, "127.0.0.1", i, 0, login)
        with lock:
            results.append(result)

    def many(i):
        source = f"127.1.{i // 250}.{i % 250 + 1}"
        barrier.wait()
        end = time.monotonic() + seconds
        n = 0
        mine = []
        while time.monotonic() < end:
            answer = request(port, source, i + n, n, f"guess{i}-{n}")
            mine.append(answer)
            n += 1
            if answer[0] == 429 and pause:
                time.sleep(pause)
        with lock:
            results.extend(mine)

    target = one if mode == "one" else many
    threads = [threading.Thread(target=target, args=(i,)) for i in range(count)]
    started = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    took = time.monotonic() - started

    answers = Counter(f"{status} {error}" for status, error, _ in results)
    times = sorted(t * 1000 for _, _, t in results)

    def pct(p):
        return round(times[min(len(times) - 1, int(len(times) * p))], 1) if times else 0

    print(
        json.dumps(
            {
                "mode": mode,
                "requests": len(results),
                "seconds": round(took, 2),
                "answers": dict(answers.most_common()),
                "p50_ms": pct(0.5),
                "p99_ms": pct(0.99),
                "max_ms": round(times[-1], 1) if times else 0,
            },
            ensure_ascii=False,
        )
    )


if __name__ == "__main__":
    main()
