#!/usr/bin/env python3
"""Hostile cars written by SQL behind the API, for the memory test
(scripts/test-memory.sh, issue 42): what an editor could make before lists
inside a car had count limits.

    hostile_cars.py DB [TRIMS]

Gives the ten newest published cars TRIMS trim levels each (default 4,000,
each with a 60-character name and a 300-character description), featured, so
the home page and every list show them; and the next ten every text at its
largest (name 255, model 100, engine 100, trim 100, generation 50, colour
50 characters). Prints the slugs of the changed cars, one a line. Only the
standard library (sqlite3); the server may be running (WAL).
"""

import json
import sqlite3
import sys


def main():
    db = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 4000
    conn = sqlite3.connect(db, timeout=30)
    rows = conn.execute(
        "SELECT id, slug FROM cars WHERE published = 1 ORDER BY created_at DESC LIMIT 20"
    ).fetchall()
    if len(rows) < 20:
        sys.exit(f"{db}: {len(rows)} published cars, 20 needed")
    trims = json.dumps(
        [
            {
                "name": f"Комплектация {n:05d} " + "Я" * 41,
                "description": f"{n}: " + "Описание комплектации. " * 13,
                "link": f"https://example.ru/trim/{n}",
            }
            for n in range(count)
        ],
        ensure_ascii=False,
    )
    with conn:
        for car_id, _ in rows[:10]:
            conn.execute(
                "UPDATE cars SET trim_levels = ?, featured = 1, in_stock = 1 WHERE id = ?",
                (trims, car_id),
            )
        for n, (car_id, _) in enumerate(rows[10:]):
            conn.execute(
                "UPDATE cars SET name = ?, model = ?, engine = ?, trim = ?, generation = ?,"
                " color = ?, featured = 1 WHERE id = ?",
                (
                    f"{n:02d}" + "Ж" * 253,
                    "М" * 100,
                    "Д" * 100,
                    "К" * 100,
                    "П" * 50,
                    "Ц" * 50,
                    car_id,
                ),
            )
    for _, slug in rows:
        print(slug)


if __name__ == "__main__":
    main()
