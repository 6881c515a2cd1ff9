#!/usr/bin/env python3
"""Helpers of bench/pages.sh (standard library only).

  pages_report.py parse WRK_OUTPUT
      prints: requests_per_sec p50_ms p99_ms non2xx socket_errors requests bare
      (bare: answers sent as the unrendered shell, from pages_miss.lua; - otherwise)
  pages_report.py extract HTML_FILE JSON_OUT
      writes the page's embedded data (the preload-data script) to JSON_OUT;
      prints whether the page arrived drawn ("rendered") or as the shell ("shell")
  pages_report.py first-slug JSON_FILE
      the slug of the first item of an API list answer
  pages_report.py table RESULTS_TSV MEMORY_TSV [RENDER_TSV]
      prints the summary tables

RESULTS_TSV lines: kind case side round rps p50 p99 non2xx sockerr requests bare cpu_us other_cpu
MEMORY_TSV lines:  server step rss_kb hwm_kb
RENDER_TSV lines:  written by benches/render.rs and bench/render_v8.mjs
"""

import json
import re
import statistics
import sys

UNIT_MS = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60_000.0, "h": 3_600_000.0}
# Budgets of the task.
CACHED_RATIO_MIN = 0.5  # "about what a cached API answer costs"; warn below
RENDER_P99_MAX_MS = 10.0
# Rows of the render-alone table, in this order: QuickJS with the server's
# store of drawn fragments, QuickJS drawing everything, node's V8.
ENGINES = ["quickjs", "quickjs-cold", "v8", "v8-jitless"]
NOISY_OTHER_CPU = 10.0


def to_ms(text):
    match = re.fullmatch(r"([0-9.]+)(us|ms|s|m|h)", text.strip())
    if not match:
        raise ValueError(f"not a wrk duration: {text!r}")
    return float(match.group(1)) * UNIT_MS[match.group(2)]


def parse(path):
    text = open(path, encoding="utf-8", errors="replace").read()
    rps = re.search(r"^Requests/sec:\s+([0-9.]+)", text, re.M)
    p50 = re.search(r"^\s+50%\s+(\S+)", text, re.M)
    p99 = re.search(r"^\s+99%\s+(\S+)", text, re.M)
    total = re.search(r"^\s*(\d+) requests in", text, re.M)
    if not (rps and p50 and p99 and total):
        sys.exit(f"cannot parse wrk output {path}:\n{text}")
    non2xx = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", text)
    sock = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", text)
    sockerr = sum(int(x) for x in sock.groups()) if sock else 0
    bare = re.search(r"^PAGES_BARE (\d+) of (\d+)", text, re.M)
    print(f"{float(rps.group(1)):.2f} {to_ms(p50.group(1)):.3f} {to_ms(p99.group(1)):.3f} "
          f"{int(non2xx.group(1)) if non2xx else 0} {sockerr} {total.group(1)} "
          f"{bare.group(1) if bare else '-'}")


PRELOAD = re.compile(r'<script type="application/json" id="preload-data">(.*?)</script>', re.S)


def extract(html_path, json_out):
    html = open(html_path, encoding="utf-8").read()
    match = PRELOAD.search(html)
    if not match:
        sys.exit(f"{html_path}: no preload-data script")
    data = match.group(1)
    json.loads(data)  # it must be JSON as it stands
    with open(json_out, "w", encoding="utf-8") as f:
        f.write(data)
    print("shell" if '<div id="app"><noscript>' in html else "rendered")


def first_slug(path):
    value = json.load(open(path, encoding="utf-8"))
    if isinstance(value, dict):
        for key in ("items", "cars", "data"):
            if isinstance(value.get(key), list):
                value = value[key]
                break
    print(value[0]["slug"])


def load_results(path):
    rows = []
    for line in open(path, encoding="utf-8"):
        p = line.split()
        if not p:
            continue
        rows.append({
            "kind": p[0], "case": p[1], "side": p[2], "round": int(p[3]),
            "rps": float(p[4]), "p50": float(p[5]), "p99": float(p[6]),
            "non2xx": int(p[7]), "sockerr": int(p[8]), "requests": int(p[9]),
            "bare": None if p[10] == "-" else int(p[10]),
            "cpu_us": float(p[11]), "other": float(p[12]),
        })
    return rows


def summary(rows):
    """Median req/s, p50 and cpu per answer; worst p99; sums of errors."""
    return {
        "rps": statistics.median(r["rps"] for r in rows),
        "p50": statistics.median(r["p50"] for r in rows),
        "p99": max(r["p99"] for r in rows),
        "errors": sum(r["non2xx"] + r["sockerr"] for r in rows),
        "bare": None if rows[0]["bare"] is None else sum(r["bare"] for r in rows),
        "requests": sum(r["requests"] for r in rows),
        "cpu_us": statistics.median(r["cpu_us"] for r in rows),
        "other": max(r["other"] for r in rows),
    }


def table(results_path, memory_path, render_path=None):
    rows = load_results(results_path)
    groups = {}
    for r in rows:
        groups.setdefault((r["kind"], r["case"], r["side"]), []).append(r)
    s = {k: summary(v) for k, v in groups.items()}
    cases = []
    for r in rows:
        if (r["kind"], r["case"]) not in cases:
            cases.append((r["kind"], r["case"]))

    print("cached answers (wrk -c64, median req/s, p50 median, p99 worst run; ratio = req/s / the API's")
    print("on the same server in the same encoding; NAME_br: Accept-Encoding: br):")
    print(f"  {'case':<14} {'render':<6} {'req/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'CPU/answer':>11} {'ratio':>6} {'errors':>6} {'other cpu':>9}")
    warnings = []
    for kind, case in cases:
        if kind != "cached":
            continue
        for side in ("on", "off"):
            x = s.get((kind, case, side))
            if not x:
                continue
            api = s.get(("cached", "api_br" if case.endswith("_br") else "api", side))
            ratio = x["rps"] / api["rps"] if api else float("nan")
            print(f"  {case:<14} {side:<6} {x['rps']:>9.0f} {x['p50']:>8.2f} {x['p99']:>8.2f} "
                  f"{x['cpu_us']:>8.0f} us {ratio:>6.2f} {x['errors']:>6} {x['other']:>8.0f}%")
            if not case.startswith("api") and side == "on" and ratio < CACHED_RATIO_MIN:
                warnings.append(f"cached {case}: {ratio:.2f} x the API's req/s")
            if x["other"] > NOISY_OTHER_CPU:
                warnings.append(f"{case} {side}: other processes took {x['other']:.0f}% of the CPU (noisy)")
    print()
    print("cache misses (pages_miss.lua: /used-cars?price=<new>&page=<1-3>, every request a new key):")
    print(f"  {'case':<14} {'render':<6} {'req/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'CPU/answer':>11} {'bare shells':>16} {'errors':>6} {'other cpu':>9}")
    for kind, case in cases:
        if kind != "miss":
            continue
        miss = {side: s.get((kind, case, side)) for side in ("on", "off")}
        for side in ("on", "off"):
            x = miss[side]
            if not x:
                continue
            print(f"  {case:<14} {side:<6} {x['rps']:>9.1f} {x['p50']:>8.2f} {x['p99']:>8.2f} {x['cpu_us']:>8.0f} us "
                  f"{str(x['bare']) + ' of ' + str(x['requests']):>16} {x['errors']:>6} {x['other']:>8.0f}%")
        if miss["on"] and miss["off"]:
            on, off = miss["on"], miss["off"]
            share = (on["cpu_us"] - off["cpu_us"]) / on["cpu_us"] if on["cpu_us"] else float("nan")
            print(f"  {'':<14} render share: {on['cpu_us'] - off['cpu_us']:.0f} us of {on['cpu_us']:.0f} us "
                  f"server CPU per answer ({100 * share:.0f} %); p50 {on['p50']:.2f} ms on vs {off['p50']:.2f} ms off")
    print()
    print("server memory (VmRSS; VmHWM = peak):")
    mem = {}
    for line in open(memory_path, encoding="utf-8"):
        p = line.split()
        if len(p) >= 4:
            mem.setdefault(p[0], {})[p[1]] = (int(p[2]), int(p[3]))
    steps = []
    for v in mem.values():
        for step in v:
            if step not in steps:
                steps.append(step)
    print("  " + f"{'server':<10}" + "".join(f"{step:>22}" for step in steps) + f"{'peak (VmHWM)':>16}")
    for server, v in mem.items():
        cells = "".join(f"{v[step][0] / 1024:>19.1f} MB" if step in v else f"{'-':>22}" for step in steps)
        peak = max(h for _, h in v.values()) / 1024
        print(f"  {server:<10}{cells}{peak:>13.1f} MB")
    if render_path:
        print()
        print("the render alone (one engine, timed renders after a warm-up):")
        print(f"  {'page':<16} {'engine':<13} {'p50 ms':>8} {'p90 ms':>8} {'p99 ms':>8} {'mean ms':>8}  memory")
        procs = {}
        entries = []
        for line in open(render_path, encoding="utf-8"):
            p = line.rstrip("\n").split("\t")
            if len(p) < 2:
                continue
            if p[1] == "_process":
                procs[p[0]] = p
            else:
                entries.append(p)
        entries.sort(key=lambda p: (p[1], ENGINES.index(p[0]) if p[0] in ENGINES else 9))
        for p in entries:
            engine, name, p50, p90, p99, mean = p[0], p[1], *map(float, p[2:6])
            if engine.startswith("quickjs"):
                mem_text = f"memory_used {int(p[6]) / 1024 / 1024:.1f} MB"
            else:
                mem_text = f"process RSS {int(p[6]) / 1024 / 1024:.1f} MB, heap used {int(p[7]) / 1024 / 1024:.1f} MB"
            print(f"  {name:<16} {engine:<13} {p50:>8.2f} {p90:>8.2f} {p99:>8.2f} {mean:>8.2f}  {mem_text}")
            if engine == "quickjs" and p99 > RENDER_P99_MAX_MS:
                warnings.append(f"render {name}: p99 {p99:.1f} ms in QuickJS (budget {RENDER_P99_MAX_MS:.0f} ms)")
        for engine, p in procs.items():
            print(f"  {engine}: node process before the script {int(p[4]) / 1048576:.1f} MB RSS, "
                  f"after loading it {int(p[5]) / 1048576:.1f} MB, after all pages {int(p[2]) / 1048576:.1f} MB "
                  f"(heap used {int(p[3]) / 1048576:.1f} MB)")
    print()
    if warnings:
        print("NOTES:")
        for w in warnings:
            print(f"  - {w}")
    else:
        print("no budget notes")


if __name__ == "__main__":
    commands = {"parse": parse, "extract": extract, "first-slug": first_slug, "table": table}
    if len(sys.argv) < 2 or sys.argv[1] not in commands:
        sys.exit(__doc__)
    commands[sys.argv[1]](*sys.argv[2:])
