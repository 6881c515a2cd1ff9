// The comparison of bench/compare_express.sh: GET /api/cars/fast of the
// dealership (published cars, a page at a time, filtered by status, body type,
// brand and price, newest first or by price) written the plain way in Express
// with better-sqlite3, over the same database file and with the same SQL the
// dealership runs (src/domain/cars.rs), and the same JSON shape.
//
// Usage: node server.js DB_FILE PORT [WORKERS]
//   WORKERS > 1 forks that many processes sharing the port (node:cluster).
"use strict";

const cluster = require("node:cluster");

const [dbFile, port, workersArg] = process.argv.slice(2);
if (!dbFile || !port) {
  console.error("usage: node server.js DB_FILE PORT [WORKERS]");
  process.exit(2);
}
const workers = Number(workersArg || 1);

if (workers > 1 && cluster.isPrimary) {
  for (let i = 0; i < workers; i++) cluster.fork();
  cluster.on("exit", (worker, code) => {
    console.error(`worker ${worker.process.pid} exited with ${code}`);
    process.exit(1);
  });
} else {
  serve();
}

function serve() {
  const express = require("express");
  const Database = require("better-sqlite3");

  const db = new Database(dbFile, { readonly: true, fileMustExist: true });
  db.pragma("busy_timeout = 5000");
  db.pragma("cache_size = -16000");

  const SELECT = `SELECT c.id, c.brand_id, coalesce(b.name, 'Unknown') AS brand_name,
        coalesce(b.slug, '') AS brand_slug, c.name, c.slug, c.model, c.year, c.price_kopecks,
        c.monthly_payment_kopecks, c.daily_price_kopecks, c.status, c.body_type, c.transmission,
        c.drivetrain, c.fuel_type, c.engine, c.mileage, c.in_stock, c.featured, c.trim_levels,
        c.published, c.vin, c.color, c.external_id, c.created_at, c.updated_at,
        (SELECT json_group_array(i.url ORDER BY i.position) FROM car_images i
            WHERE i.car_id = c.id) AS images,
        c.credit_discount_kopecks, c.tradein_discount_kopecks, c.insurance_discount_kopecks,
        c.max_discount_kopecks
    FROM cars c LEFT JOIN brands b ON b.id = c.brand_id`;
  const ORDER = {
    newest: "c.created_at DESC, c.rowid DESC",
    price_asc: "c.price_kopecks ASC, c.rowid",
    price_desc: "c.price_kopecks DESC, c.rowid",
  };
  const STATUSES = new Set(["new", "used", "lease"]);
  const BODY_TYPES = new Set(["sedan", "hatchback", "crossover", "wagon", "coupe", "pickup"]);

  // One prepared statement per shape of filter, as the dealership keeps them.
  const statements = new Map();
  function statement(sql) {
    let stmt = statements.get(sql);
    if (!stmt) {
      stmt = db.prepare(sql);
      statements.set(sql, stmt);
    }
    return stmt;
  }

  function money(kopecks) {
    if (kopecks === null || kopecks === undefined) return null;
    const rubles = Math.trunc(kopecks / 100);
    const rest = Math.abs(kopecks % 100);
    return `${rubles}.${rest < 10 ? "0" : ""}${rest}`;
  }

  function parsePrice(text) {
    if (text === undefined || text === "") return null;
    if (!/^\d{1,10}(\.\d{1,2})?$/.test(text)) return undefined;
    const [whole, fraction = ""] = text.split(".");
    return Number(whole) * 100 + Number((fraction + "00").slice(0, 2));
  }

  function car(row) {
    const images = JSON.parse(row.images || "[]");
    let trims = [];
    try {
      trims = JSON.parse(row.trim_levels || "[]").map((t) => ({
        name: t.name ?? "",
        description: t.description ?? "",
        link: t.link ?? "",
      }));
    } catch {
      trims = [];
    }
    return {
      id: row.id,
      brandId: row.brand_id,
      brandName: row.brand_name,
      brandSlug: row.brand_slug,
      name: row.name,
      slug: row.slug,
      model: row.model,
      year: row.year,
      price: money(row.price_kopecks),
      monthlyPayment: money(row.monthly_payment_kopecks),
      dailyPrice: money(row.daily_price_kopecks),
      status: row.status,
      bodyType: row.body_type,
      transmission: row.transmission,
      drivetrain: row.drivetrain,
      fuelType: row.fuel_type,
      engine: row.engine,
      mileage: row.mileage,
      mainImage: images[0] || "",
      images,
      hasImages: images.length > 0,
      inStock: row.in_stock === 1,
      featured: row.featured === 1,
      trimLevels: trims,
      published: row.published === 1,
      vin: row.vin,
      color: row.color,
      externalId: row.external_id,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      creditDiscount: money(row.credit_discount_kopecks),
      tradeinDiscount: money(row.tradein_discount_kopecks),
      insuranceDiscount: money(row.insurance_discount_kopecks),
      maxDiscount: money(row.max_discount_kopecks),
    };
  }

  const app = express();
  app.disable("x-powered-by");
  app.disable("etag");

  app.get("/api/cars/fast", (req, res) => {
    const q = req.query;
    const clauses = ["c.published = 1"];
    const values = [];
    const statuses = String(q.status || "")
      .split(",")
      .map((s) => s.trim())
      .filter((s) => s && s !== "all");
    for (const s of statuses) {
      if (!STATUSES.has(s)) return res.status(400).json({ error: `Неизвестный статус: ${s}` });
    }
    if (statuses.length) {
      clauses.push(`c.status IN (${statuses.map(() => "?").join(", ")})`);
      values.push(...statuses);
    }
    if (q.brandId && q.brandId !== "all") {
      clauses.push("c.brand_id = ?");
      values.push(String(q.brandId));
    }
    if (q.bodyType && q.bodyType !== "all") {
      if (!BODY_TYPES.has(q.bodyType)) {
        return res.status(404).json({ error: `Неизвестный тип кузова: ${q.bodyType}` });
      }
      clauses.push("c.body_type = ?");
      values.push(String(q.bodyType));
    }
    const sort = q.sort || "newest";
    if (!ORDER[sort]) return res.status(400).json({ error: `Неизвестная сортировка: ${sort}` });
    // The same price terms as src/domain/cars.rs: checked per row in date
    // order (so the newest-first indexes are walked), a range otherwise.
    const price = sort === "newest" ? "+c.price_kopecks" : "c.price_kopecks";
    for (const [name, op] of [["minPrice", ">="], ["maxPrice", "<="]]) {
      const kopecks = parsePrice(q[name]);
      if (kopecks === undefined) {
        return res.status(400).json({ error: `Неверная цена в ${name}: ${q[name]}` });
      }
      if (kopecks !== null) {
        clauses.push(`${price} ${op} ?`);
        values.push(kopecks);
      }
    }
    const limit = Math.min(Math.max(Number.parseInt(q.limit, 10) || 12, 1), 100);
    const offset = Math.max(Number.parseInt(q.offset, 10) || 0, 0);
    const order = ORDER[sort];
    const sql = `${SELECT} WHERE c.rowid IN (SELECT c.rowid FROM cars c WHERE ${clauses.join(" AND ")}
      ORDER BY ${order} LIMIT ? OFFSET ?) ORDER BY ${order}`;
    const rows = statement(sql).all(...values, limit, offset);
    res.json(rows.map(car));
  });

  app.listen(Number(port), "127.0.0.1", () => {
    console.error(`express ${process.pid} on 127.0.0.1:${port}`);
  });
}
