#!/usr/bin/env python3
"""Times public pages no one has asked for yet, one request at a time.

Usage: cold_pages.py BASE_URL [BASE_URL ...] [--per-route N] [--out FILE]

Each base URL is a server on the same data. For every route of the site
(home, the three catalogues with and without filters and pages, brand and
body-type pages, car pages) it makes N addresses no request has asked for
before (a new page number, filter or car each time) and asks each server for
each, alternating servers request by request so they share the machine's
conditions. Each request is timed from its first byte sent to the last byte
of the answer, with `Accept-Encoding: br, gzip` as a browser asks; a
connection per server is kept alive.

Prints a table per server (p50, p99 and max per route and overall, and the
count of pages over 10 ms) and writes the raw timings as JSON to --out.
"""

import argparse
import http.client
import json
import statistics
import sys
import time
import urllib.parse

SLOW_MS = 10.0


def connect(base):
    parts = urllib.parse.urlsplit(base)
    return http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)


def fetch(conn, path, headers=None):
    started = time.perf_counter()
    conn.request("GET", path, headers=headers or {})
    answer = conn.getresponse()
    body = answer.read()
    return answer.status, body, (time.perf_counter() - started) * 1000


def json_of(conn, path):
    status, body, _ = fetch(conn, path)
    if status != 200:
        sys.exit(f"{path} answered {status}")
    return json.loads(body)


def routes(conn, per_route, skip=0):
    """Addresses no page has shown, per route (each unique)."""
    brands = [b["slug"] for b in json_of(conn, "/api/brands/fast")]
    bodies = ["sedan", "hatchback", "crossover", "wagon", "coupe", "pickup"]
    cars = json_of(conn, f"/api/cars/fast?limit=100&offset=300")
    cars += json_of(conn, f"/api/cars/fast?limit=100&offset=2000")
    n = range(skip, skip + per_route)
    out = {
        "home": ["/"] if skip == 0 else [],
        "new_cars": [f"/new-cars?page={2 + i}" for i in n],
        "used_cars": [f"/used-cars?page={2 + i}" for i in n],
        "lease_cars": [f"/lease-cars?page={1 + i}" for i in n],
        "filtered": filtered(cars, per_route, skip),
        # A brand's page turns its sections' pages by their own parameters.
        "brand": [f"/brand/{brands[i % len(brands)]}?used={1 + i // len(brands)}" for i in n],
        "body_type": [
            f"/body-type/{bodies[i % len(bodies)]}?page={1 + i // len(bodies)}&condition={'new' if i % 2 else 'used'}"
            for i in n
        ],
        "car": [f"/car/{car['slug']}" for car in cars[skip : skip + per_route]],
    }
    return out


def filtered(cars, per_route, skip):
    """Catalogue addresses with a brand, a body type and a price limit that
    list cars: each made from a car of the sample (its status's catalogue,
    its brand and body, a limit at or above its price), so no address is an
    empty list; each unique."""
    out = []
    for car in cars:
        catalogue = {"new": "new-cars", "used": "used-cars"}.get(car.get("status"))
        if catalogue is None or not car.get("brandSlug") or not car.get("bodyType"):
            continue
        rubles = int(float(car["price"]))
        for step in range(0, 20):
            limit = min(10_000_000, max(500_000, -(-rubles // 100_000) * 100_000) + 100_000 * step)
            path = f"/{catalogue}?brand={car['brandSlug']}&body={car['bodyType']}&price={limit}"
            if path not in out:
                out.append(path)
                break
        if len(out) >= skip + per_route:
            break
    return out[skip : skip + per_route]


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("bases", nargs="+")
    parser.add_argument("--per-route", type=int, default=30)
    parser.add_argument("--skip", type=int, default=0, help="addresses of each route left for another run")
    parser.add_argument("--out")
    args = parser.parse_args()
    conns = [connect(b) for b in args.bases]
    families = routes(conns[0], args.per_route, args.skip)
    headers = {"Accept-Encoding": "br, gzip"}
    timings = {b: {} for b in args.bases}
    sizes = {}
    for family, paths in families.items():
        for path in paths:
            for base, conn in zip(args.bases, conns):
                status, body, ms = fetch(conn, path, headers)
                if status != 200:
                    sys.exit(f"{base}{path} answered {status}")
                if b'<div id="app"><noscript>' in body:
                    sys.exit(f"{base}{path} came as the bare shell")
                timings[base].setdefault(family, []).append(ms)
                sizes[family] = len(body)
    # Pages of a route listing cars drawn without a card (a skeleton, as the
    # lease and brand pages were while they read their whole list): their
    # time would be no drawing's.
    cardless = {}
    for family, paths in families.items():
        if family == "car":
            continue
        for path in paths:
            _, body, _ = fetch(conns[0], path)
            if b'data-testid="car-card"' not in body:
                cardless[family] = cardless.get(family, 0) + 1
    for family, count in cardless.items():
        print(f"WARNING: {count} of {len(families[family])} {family} pages came without a car card")
    for base in args.bases:
        every = [ms for values in timings[base].values() for ms in values]
        slow = sum(ms > SLOW_MS for ms in every)
        print(f"{base}: {len(every)} cold pages, {slow} over {SLOW_MS:.0f} ms")
        print(f"  {'route':<11} {'n':>3} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'br B':>7}")
        for family, values in timings[base].items():
            print(
                f"  {family:<11} {len(values):>3} {statistics.median(values):>8.2f} "
                f"{percentile(values, 0.99):>8.2f} {max(values):>8.2f} {sizes[family]:>7}"
            )
        print(
            f"  {'all':<11} {len(every):>3} {statistics.median(every):>8.2f} "
            f"{percentile(every, 0.99):>8.2f} {max(every):>8.2f}"
        )
    if args.out:
        with open(args.out, "w") as f:
            json.dump(timings, f)


if __name__ == "__main__":
    main()
