#!/usr/bin/env python3
"""Loads brands and published cars straight into a migrated dealership database.

Usage: load_cars.py DB_FILE [COUNT]

Everything goes in one transaction. The data is random but reproducible
(fixed seed) and follows the constraints of migrations/ (see docs/schema.md):
money in kopecks, RFC 3339 UTC timestamps with milliseconds, enum columns from
their lists, body types from `body_types`, and 1 to 6 pictures per car as
`car_images` rows (position 0 the main one) of /media/...-800.webp URLs.
Prints one line: the slug of a car to fetch with /api/cars/slug/{slug}.
"""

import datetime as dt
import hashlib
import json
import random
import sqlite3
import sys
import uuid

SEED = 20260522

# brand name, slug, [(model, body type, base price in rubles, engines)]
BRANDS = [
    ("Toyota", "toyota", [
        ("Camry", "sedan", 3_900_000, ["2.0 л, 150 л.с.", "2.5 л, 200 л.с."]),
        ("Corolla", "sedan", 2_600_000, ["1.6 л, 122 л.с."]),
        ("RAV4", "crossover", 4_200_000, ["2.0 л, 149 л.с.", "2.5 л, 199 л.с."]),
        ("Land Cruiser Prado", "crossover", 7_900_000, ["2.8 л, 204 л.с. дизель"]),
        ("Hilux", "pickup", 5_100_000, ["2.8 л, 204 л.с. дизель"]),
    ]),
    ("Kia", "kia", [
        ("Rio", "sedan", 1_800_000, ["1.6 л, 123 л.с."]),
        ("Ceed", "hatchback", 2_200_000, ["1.6 л, 128 л.с.", "1.4 T-GDI, 140 л.с."]),
        ("Ceed SW", "wagon", 2_400_000, ["1.6 л, 128 л.с."]),
        ("Sportage", "crossover", 3_500_000, ["2.0 л, 150 л.с.", "2.5 л, 190 л.с."]),
        ("Stinger", "coupe", 4_600_000, ["2.5 T-GDI, 304 л.с."]),
    ]),
    ("Hyundai", "hyundai", [
        ("Solaris", "sedan", 1_700_000, ["1.6 л, 123 л.с."]),
        ("i30", "hatchback", 2_100_000, ["1.6 л, 128 л.с."]),
        ("Tucson", "crossover", 3_400_000, ["2.0 л, 150 л.с."]),
        ("Santa Fe", "crossover", 4_500_000, ["2.5 л, 180 л.с.", "2.2 CRDi, 199 л.с."]),
        ("Santa Cruz", "pickup", 4_900_000, ["2.5 T-GDI, 281 л.с."]),
    ]),
    ("Volkswagen", "volkswagen", [
        ("Polo", "sedan", 1_900_000, ["1.6 MPI, 110 л.с.", "1.4 TSI, 125 л.с."]),
        ("Golf", "hatchback", 2_700_000, ["1.4 TSI, 150 л.с."]),
        ("Passat Variant", "wagon", 3_600_000, ["2.0 TSI, 190 л.с.", "2.0 TDI, 150 л.с."]),
        ("Tiguan", "crossover", 3_800_000, ["1.4 TSI, 150 л.с.", "2.0 TSI, 220 л.с."]),
        ("Amarok", "pickup", 5_300_000, ["3.0 TDI, 224 л.с."]),
    ]),
    ("Škoda", "skoda", [
        ("Rapid", "hatchback", 1_900_000, ["1.6 MPI, 110 л.с."]),
        ("Octavia", "sedan", 2_800_000, ["1.4 TSI, 150 л.с.", "1.8 TSI, 180 л.с."]),
        ("Octavia Combi", "wagon", 3_000_000, ["1.4 TSI, 150 л.с."]),
        ("Kodiaq", "crossover", 4_100_000, ["2.0 TSI, 180 л.с.", "2.0 TDI, 150 л.с."]),
    ]),
    ("BMW", "bmw", [
        ("3 Series", "sedan", 5_200_000, ["2.0 л, 184 л.с.", "2.0 л, 249 л.с."]),
        ("4 Series Coupe", "coupe", 6_500_000, ["2.0 л, 249 л.с.", "3.0 л, 374 л.с."]),
        ("X3", "crossover", 6_900_000, ["2.0 л, 249 л.с.", "2.0d, 190 л.с."]),
        ("X5", "crossover", 10_500_000, ["3.0 л, 340 л.с.", "3.0d, 249 л.с."]),
        ("3 Series Touring", "wagon", 5_600_000, ["2.0 л, 184 л.с."]),
    ]),
    ("Mercedes-Benz", "mercedes-benz", [
        ("C-Class", "sedan", 5_900_000, ["1.5 л, 204 л.с.", "2.0 л, 258 л.с."]),
        ("E-Class", "sedan", 8_200_000, ["2.0 л, 258 л.с.", "3.0 л, 367 л.с."]),
        ("GLC Coupe", "coupe", 8_700_000, ["2.0 л, 258 л.с."]),
        ("GLE", "crossover", 11_900_000, ["3.0 л, 367 л.с.", "3.0d, 330 л.с."]),
        ("X-Class", "pickup", 6_100_000, ["2.3d, 190 л.с."]),
    ]),
    ("Lada", "lada", [
        ("Vesta", "sedan", 1_350_000, ["1.6 л, 106 л.с.", "1.8 л, 122 л.с."]),
        ("Vesta SW Cross", "wagon", 1_550_000, ["1.6 л, 106 л.с.", "1.8 л, 122 л.с."]),
        ("Granta", "sedan", 850_000, ["1.6 л, 90 л.с."]),
        ("Granta Hatchback", "hatchback", 880_000, ["1.6 л, 90 л.с."]),
        ("Niva Travel", "crossover", 1_250_000, ["1.7 л, 80 л.с."]),
    ]),
    ("Haval", "haval", [
        ("Jolion", "crossover", 2_300_000, ["1.5T, 143 л.с."]),
        ("F7", "crossover", 2_900_000, ["1.5T, 150 л.с.", "2.0T, 190 л.с."]),
        ("F7x", "coupe", 3_100_000, ["2.0T, 190 л.с."]),
        ("Dargo", "crossover", 3_300_000, ["2.0T, 192 л.с."]),
        ("Poer", "pickup", 3_600_000, ["2.0T, 190 л.с."]),
    ]),
    ("Chery", "chery", [
        ("Tiggo 4 Pro", "crossover", 2_000_000, ["1.5 л, 113 л.с.", "1.5T, 147 л.с."]),
        ("Tiggo 7 Pro Max", "crossover", 2_700_000, ["1.5T, 147 л.с."]),
        ("Tiggo 8 Pro", "crossover", 3_400_000, ["2.0T, 197 л.с."]),
        ("Arrizo 8", "sedan", 2_600_000, ["1.6T, 186 л.с."]),
    ]),
    ("Geely", "geely", [
        ("Coolray", "crossover", 2_300_000, ["1.5T, 150 л.с."]),
        ("Monjaro", "crossover", 4_200_000, ["2.0T, 238 л.с."]),
        ("Emgrand", "sedan", 1_900_000, ["1.5 л, 122 л.с."]),
        ("Preface", "sedan", 2_800_000, ["2.0T, 200 л.с."]),
    ]),
    ("Nissan", "nissan", [
        ("Qashqai", "crossover", 2_800_000, ["2.0 л, 144 л.с."]),
        ("X-Trail", "crossover", 3_600_000, ["2.5 л, 171 л.с."]),
        ("Almera", "sedan", 1_300_000, ["1.6 л, 102 л.с."]),
        ("Note", "hatchback", 1_200_000, ["1.6 л, 110 л.с."]),
        ("Navara", "pickup", 3_900_000, ["2.3 dCi, 190 л.с."]),
    ]),
]

COLORS = ["Белый", "Чёрный", "Серебристый", "Серый", "Синий", "Красный",
          "Коричневый", "Зелёный", "Бежевый", "Оранжевый"]
TRIMS = [
    ("Стандарт", "Кондиционер, мультимедиа, 6 подушек безопасности"),
    ("Комфорт", "Климат-контроль, подогрев сидений, камера заднего вида"),
    ("Престиж", "Кожаный салон, панорамная крыша, адаптивный круиз-контроль"),
    ("Люкс", "Светодиодная оптика, вентиляция сидений, премиальная аудиосистема"),
]
VIN_CHARS = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789"  # no I, O, Q


def slugify(text):
    table = {"š": "s", "Š": "s"}
    out = []
    for ch in text.lower():
        ch = table.get(ch, ch)
        out.append(ch if ch.isascii() and ch.isalnum() else "-")
    return "-".join(part for part in "".join(out).split("-") if part)


def rfc3339(moment):
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def media_url(rng):
    digest = hashlib.sha256(rng.randbytes(16)).hexdigest()[:32]
    return f"/media/{digest}-800.webp"


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: load_cars.py DB_FILE [COUNT]")
    path = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) == 3 else 10_000
    rng = random.Random(SEED)
    now = dt.datetime(2026, 5, 1, 12, 0, 0, tzinfo=dt.timezone.utc)

    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute("PRAGMA busy_timeout = 5000")
    conn.execute("BEGIN IMMEDIATE")
    brand_rows = []
    for name, slug, models in BRANDS:
        brand_id = str(uuid.UUID(int=rng.getrandbits(128), version=4))
        stamp = rfc3339(now - dt.timedelta(days=400))
        conn.execute(
            "INSERT INTO brands (id, name, slug, logo, description, created_at, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (brand_id, name, slug, media_url(rng),
             f"Официальный дилер {name}: новые автомобили, автомобили с пробегом и аренда.",
             stamp, stamp),
        )
        brand_rows.append((brand_id, name, slug, models))

    sample_slug = None
    rows = []
    image_rows = []
    for i in range(count):
        brand_id, brand, brand_slug, models = rng.choice(brand_rows)
        model, body, base_price, engines = rng.choice(models)
        status = rng.choices(["new", "used", "lease"], weights=[45, 40, 15])[0]
        if status == "new":
            year = rng.choice([2025, 2026])
            mileage = rng.choice([0, 0, 0, 5, 10, 15])
            price = base_price * rng.uniform(0.95, 1.25)
        elif status == "used":
            year = rng.randint(2012, 2024)
            age = 2026 - year
            mileage = rng.randint(8_000, 22_000) * age
            price = base_price * max(0.25, 1 - 0.08 * age) * rng.uniform(0.85, 1.1)
        else:
            year = rng.choice([2023, 2024, 2025])
            mileage = rng.randint(0, 60_000)
            price = base_price * rng.uniform(0.8, 1.05)
        price_kopecks = int(round(price / 1000)) * 1000 * 100  # whole thousands of rubles
        monthly = None
        daily = None
        if status in ("new", "used") and rng.random() < 0.7:
            monthly = int(price_kopecks * rng.uniform(0.018, 0.028)) // 100 * 100
        if status == "lease":
            daily = rng.randint(25, 120) * 100 * 100
            monthly = daily * 30
        engine = rng.choice(engines)
        fuel = "diesel" if ("дизель" in engine or "d," in engine or "TDI" in engine
                            or "CRDi" in engine or "dCi" in engine) else rng.choices(
            ["gasoline", "hybrid", "electric"], weights=[90, 8, 2])[0]
        if body == "pickup" or "Land Cruiser" in model or body == "crossover" and rng.random() < 0.5:
            drivetrain = "all"
        else:
            drivetrain = rng.choices(["front", "rear", "all"], weights=[70, 15, 15])[0]
        transmission = rng.choices(["automatic", "manual", "cvt", "robotic"],
                                   weights=[60, 15, 15, 10])[0]
        images = [media_url(rng) for _ in range(rng.randint(1, 6))]
        trims = [
            {"name": t, "description": d, "link": ""}
            for t, d in rng.sample(TRIMS, rng.randint(0, 3))
        ]
        created = now - dt.timedelta(seconds=rng.randint(0, 365 * 24 * 3600),
                                     milliseconds=rng.randint(0, 999))
        updated = created + dt.timedelta(minutes=rng.randint(0, 60 * 24 * 7))
        if updated > now:
            updated = now
        vin = "".join(rng.choice(VIN_CHARS) for _ in range(17))
        name = f"{brand} {model}"
        slug = f"{brand_slug}-{slugify(model)}-{year}-{i + 1:05d}"
        if i == count // 2:
            sample_slug = slug
        car_id = str(uuid.UUID(int=rng.getrandbits(128), version=4))
        rows.append((
            car_id, brand_id, name, slug, model,
            year, price_kopecks, monthly, daily, status, body, transmission, drivetrain, fuel,
            engine, mileage, 1 if rng.random() < 0.92 else 0,
            1 if rng.random() < 0.05 else 0, json.dumps(trims, ensure_ascii=False), 1, vin,
            rng.choice(COLORS), None, rfc3339(created), rfc3339(updated),
        ))
        image_rows.extend((car_id, position, url) for position, url in enumerate(images))
    conn.executemany(
        "INSERT INTO cars (id, brand_id, name, slug, model, year, price_kopecks,"
        " monthly_payment_kopecks, daily_price_kopecks, status, body_type, transmission,"
        " drivetrain, fuel_type, engine, mileage, in_stock, featured,"
        " trim_levels, published, vin, color, external_id, created_at, updated_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        rows,
    )
    conn.executemany(
        "INSERT INTO car_images (car_id, position, url) VALUES (?, ?, ?)",
        image_rows,
    )
    conn.execute("COMMIT")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    print(sample_slug)


if __name__ == "__main__":
    main()
