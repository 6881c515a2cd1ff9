import { h } from "preact";
import { lazy } from "preact/compat";
import { renderToString } from "preact-render-to-string";
import { beforeEach, describe, expect, it, vi } from "vitest";
import {
  authSnapshot,
  can,
  resetAuth,
  sessionRefused,
  signedIn,
  signedOut,
} from "../../src/admin/auth";
import { NOT_ALLOWED, ScreenGate } from "../../src/admin/components/ScreenGate";
import { dashboardParts, NO_REPLICA_NOTES, systemCard } from "../../src/admin/lib/dashboard";
import { ROLE_LABELS, roleLabel } from "../../src/admin/roles";
import {
  type AdminScreen,
  allowedScreens,
  linkAllowed,
  SCREENS,
  screenAllowed,
  screenAt,
} from "../../src/admin/screens";
import type { Capability, Role } from "../../src/api/types";

// The layout and wouter's Link stand in plainly: the site's hooks (react-query,
// wouter) come from React in Node, not from preact, so the real ones cannot
// render here. What is tested is what the gate puts inside the layout.
vi.mock("../../src/admin/components/AdminPage", async () => {
  const { h } = await import("preact");
  return {
    AdminPage: ({ title, children }: { title: string; children: unknown }) =>
      h("main", { "data-layout": "admin" }, h("h1", null, title), children as never),
  };
});
vi.mock("wouter", async () => {
  const { h } = await import("preact");
  return {
    Link: ({ href, children }: { href: string; children: unknown }) =>
      h("a", { href }, children as never),
  };
});

/** The server's table (src/domain/roles.rs): what `Me.capabilities` lists. */
const CAPABILITIES: Record<Role, Capability[]> = {
  owner: [
    "staff",
    "figures",
    "catalogueRead",
    "catalogueWrite",
    "banners",
    "imports",
    "leads",
    "settings",
    "personalData",
    "users",
  ],
  manager: ["staff", "figures", "catalogueRead", "leads"],
  editor: ["staff", "figures", "catalogueRead", "catalogueWrite", "banners", "imports"],
  viewer: ["staff", "figures", "catalogueRead"],
};

const paths = (role: Role) => allowedScreens(CAPABILITIES[role]).map((s) => s.path);

describe("the screens a role sees", () => {
  it("each screen needs its capability", () => {
    expect(Object.fromEntries(SCREENS.map((s) => [s.path, s.capability]))).toEqual({
      "/dashboard": "figures",
      "/cars": "catalogueRead",
      "/brands": "catalogueRead",
      "/reviews": "catalogueRead",
      "/leads": "leads",
      "/amocrm": "settings",
      "/marketplaces": "settings",
      "/calls": "settings",
      "/saved-searches": "personalData",
      "/personal-data": "personalData",
      "/promotions": "catalogueRead",
      "/partner-banks": "catalogueRead",
      "/credit-programs": "catalogueRead",
      "/page-banners": "banners",
      "/auto-selection-banner": "banners",
      "/parser": "imports",
      "/body-types": "catalogueRead",
      "/checks": "figures",
      "/salons": "settings",
      "/settings": "settings",
      "/users": "users",
    });
  });

  it("the owner sees every screen", () => {
    expect(paths("owner")).toEqual(SCREENS.map((s) => s.path));
  });

  it("a sales manager: figures, the catalogue to read and leads", () => {
    expect(paths("manager")).toEqual([
      "/dashboard",
      "/cars",
      "/brands",
      "/reviews",
      "/leads",
      "/promotions",
      "/partner-banks",
      "/credit-programs",
      "/body-types",
      "/checks",
    ]);
  });

  it("a content manager: the catalogue, banners and the parser; no leads or settings", () => {
    expect(paths("editor")).toEqual([
      "/dashboard",
      "/cars",
      "/brands",
      "/reviews",
      "/promotions",
      "/partner-banks",
      "/credit-programs",
      "/page-banners",
      "/auto-selection-banner",
      "/parser",
      "/body-types",
      "/checks",
    ]);
  });

  it("a viewer: figures and the catalogue to read", () => {
    expect(paths("viewer")).toEqual([
      "/dashboard",
      "/cars",
      "/brands",
      "/reviews",
      "/promotions",
      "/partner-banks",
      "/credit-programs",
      "/body-types",
      "/checks",
    ]);
  });

  it("no capabilities, no screens", () => {
    expect(allowedScreens([])).toEqual([]);
  });

  it("finds the screen of a link inside the panel", () => {
    expect(screenAt("/cars?edit=abc")?.path).toBe("/cars");
    expect(screenAt("/settings#consent")?.path).toBe("/settings");
    expect(screenAt("/")?.path).toBe("/dashboard");
    expect(screenAt("/nowhere")).toBeUndefined();
    expect(linkAllowed("/settings#consent", CAPABILITIES.viewer)).toBe(false);
    expect(linkAllowed("/settings#consent", CAPABILITIES.owner)).toBe(true);
    expect(linkAllowed("/cars?edit=abc", CAPABILITIES.viewer)).toBe(true);
    expect(linkAllowed("~/privacy", [])).toBe(true);
  });
});

describe("the role's name", () => {
  it("in Russian", () => {
    expect(ROLE_LABELS).toEqual({
      owner: "Владелец",
      manager: "Менеджер по продажам",
      editor: "Контент-менеджер",
      viewer: "Наблюдатель",
    });
    expect(roleLabel("manager")).toBe("Менеджер по продажам");
  });

  it("nothing without a role; an unknown one as it came", () => {
    expect(roleLabel(null)).toBeNull();
    expect(roleLabel(undefined)).toBeNull();
    expect(roleLabel("auditor")).toBe("auditor");
  });
});

describe("what the signed-in role may do", () => {
  beforeEach(() => resetAuth());

  it("keeps the role and capabilities from /api/admin/me", () => {
    signedIn({ username: "anna", role: "manager", capabilities: CAPABILITIES.manager });
    expect(authSnapshot()).toMatchObject({ state: "in", username: "anna", role: "manager" });
    expect(can("leads")).toBe(true);
    expect(can("catalogueRead")).toBe(true);
    expect(can("catalogueWrite")).toBe(false);
    expect(can("settings")).toBe(false);
  });

  it("nothing before the session is known or after logging out", () => {
    expect(can("staff")).toBe(false);
    signedIn({ username: "boss", role: "owner", capabilities: CAPABILITIES.owner });
    expect(can("settings")).toBe(true);
    signedOut();
    expect(can("settings")).toBe(false);
    expect(authSnapshot().role).toBeNull();
  });

  it("an expired session keeps the rights the screen under the login was drawn with", () => {
    signedIn({ username: "ed", role: "editor", capabilities: CAPABILITIES.editor });
    sessionRefused();
    expect(authSnapshot().state).toBe("expired");
    expect(can("catalogueWrite")).toBe(true);
    // Signing in again as someone else takes their rights.
    signedIn({ username: "vi", role: "viewer", capabilities: CAPABILITIES.viewer });
    expect(can("catalogueWrite")).toBe(false);
    expect(authSnapshot().role).toBe("viewer");
  });
});

describe("a screen the role may not open", () => {
  beforeEach(() => resetAuth());

  const settings = SCREENS.find((s) => s.path === "/settings") as AdminScreen;

  it("is refused by its capability", () => {
    expect(screenAllowed(settings, CAPABILITIES.owner)).toBe(true);
    for (const role of ["manager", "editor", "viewer"] as const) {
      expect(screenAllowed(settings, CAPABILITIES[role])).toBe(false);
    }
  });

  it("shows the refusal in the layout, with a heading and a link back, and loads nothing", () => {
    const load = vi.fn(() => new Promise<never>(() => {}));
    const screen: AdminScreen = { ...settings, component: lazy(load) };
    signedIn({ username: "vi", role: "viewer", capabilities: CAPABILITIES.viewer });
    const html = renderToString(h(ScreenGate, { screen }));
    expect(html).toContain('data-layout="admin"');
    expect(html).toContain("<h1>Нет доступа: Настройки</h1>");
    expect(html).toContain(NOT_ALLOWED);
    expect(NOT_ALLOWED).toBe("Недостаточно прав: вашей роли этот раздел недоступен");
    expect(html).toContain('<a href="/">Вернуться в панель администратора</a>');
    expect(load).not.toHaveBeenCalled();
  });

  it("shows the screen itself to a role that may open it", () => {
    const component = vi.fn(() => h("p", null, "Экран настроек"));
    const screen: AdminScreen = { ...settings, component };
    signedIn({ username: "boss", role: "owner", capabilities: CAPABILITIES.owner });
    const html = renderToString(h(ScreenGate, { screen }));
    expect(html).toBe("<p>Экран настроек</p>");
    expect(html).not.toContain(NOT_ALLOWED);
    expect(component).toHaveBeenCalled();

    signedIn({ username: "ed", role: "editor", capabilities: CAPABILITIES.editor });
    component.mockClear();
    expect(renderToString(h(ScreenGate, { screen }))).toContain(NOT_ALLOWED);
    expect(component).not.toHaveBeenCalled();
  });
});

describe("the dashboard's cards by role", () => {
  it("the owner sees every part", () => {
    expect(Object.values(dashboardParts(CAPABILITIES.owner)).every(Boolean)).toBe(true);
  });

  it("a sales manager: catalogue and lead counts, checks and response times", () => {
    expect(dashboardParts(CAPABILITIES.manager)).toEqual({
      catalogue: true,
      leads: true,
      deliveries: false,
      imports: false,
      checks: true,
      responseTimes: true,
      changes: false,
      dataRequests: false,
      system: false,
    });
  });

  it("a content manager: the failed import, no leads or deliveries", () => {
    expect(dashboardParts(CAPABILITIES.editor)).toEqual({
      catalogue: true,
      leads: false,
      deliveries: false,
      imports: true,
      checks: true,
      responseTimes: true,
      changes: false,
      dataRequests: false,
      system: false,
    });
  });

  it("a viewer: the catalogue counts and the figures only", () => {
    expect(dashboardParts(CAPABILITIES.viewer)).toEqual({
      catalogue: true,
      leads: false,
      deliveries: false,
      imports: false,
      checks: true,
      responseTimes: true,
      changes: false,
      dataRequests: false,
      system: false,
    });
  });
});

describe("the dashboard's system card", () => {
  it("says all is well, with the free space; lost log lines only when some are", () => {
    const card = systemCard({
      problems: [],
      freeDiskMb: 51234,
      minFreeDiskMb: 200,
      logLinesLost: 0,
      replication: null,
    });
    expect(card.value).toBe("В порядке");
    // Without [replica], the card says no copy leaves the server and how to turn it on.
    expect(card.notes).toEqual(["Свободно на диске: 51\u00a0234 МБ", ...NO_REPLICA_NOTES]);
    expect(NO_REPLICA_NOTES[0]).toContain("Копия вне сервера не делается");
    expect(NO_REPLICA_NOTES[1]).toContain("dealership setup --litestream");
  });

  it("counts the problems and lists each, then the figures", () => {
    const card = systemCard({
      problems: [
        "База данных не принимает записи: database or disk is full",
        "Мало места на диске: свободно 12 МБ, нужно не меньше 200 МБ",
      ],
      freeDiskMb: 12,
      minFreeDiskMb: 200,
      logLinesLost: 1500,
      replication: null,
    });
    expect(card.value).toBe("Проблем: 2");
    expect(card.notes).toEqual([
      "База данных не принимает записи: database or disk is full",
      "Мало места на диске: свободно 12 МБ, нужно не меньше 200 МБ",
      "Свободно на диске: 12 МБ",
      "Потеряно строк журнала: 1\u00a0500",
      ...NO_REPLICA_NOTES,
    ]);
  });

  it("leaves the free space out when it could not be read", () => {
    const card = systemCard({
      problems: [],
      freeDiskMb: null,
      minFreeDiskMb: 0,
      logLinesLost: 0,
      replication: null,
    });
    expect(card.notes).toEqual(NO_REPLICA_NOTES);
  });

  const replica = {
    target: "https://storage.yandexcloud.net auto-backups/dealership",
    checkedAt: "2026-11-24T12:00:30Z",
    bucketError: null,
    replicatedTxid: "00000000000003e8",
    replicatedAt: "2026-11-24T11:55:00Z",
    snapshotAt: "2026-11-24T00:10:00Z",
    localTxid: "00000000000003e8",
    lagSeconds: 0,
    mediaPending: 0,
    mediaFailing: 0,
    mediaLastError: null,
    mediaCopiedAt: "2026-11-24T11:50:00Z",
    litestreamDown: null,
    problems: [],
  };
  const now = new Date("2026-11-24T12:01:00Z");

  it("shows replication caught up: the last write to the storage and its age, the snapshot", () => {
    const card = systemCard(
      { problems: [], freeDiskMb: 900, minFreeDiskMb: 200, logLinesLost: 0, replication: replica },
      now,
    );
    expect(card.value).toBe("В порядке");
    expect(card.notes).toEqual([
      "Свободно на диске: 900 МБ",
      "Резервная копия в хранилище: https://storage.yandexcloud.net auto-backups/dealership",
      "Последняя запись в хранилище: 24 ноября 2026 г. в 14:55 (6 мин назад), позиция 00000000000003e8",
      "Последний снимок базы: 24 ноября 2026 г. в 03:10",
      "Все изображения в хранилище",
    ]);
  });

  it("counts replication's problems, though /healthz does not, and says what waits", () => {
    const card = systemCard(
      {
        problems: [],
        freeDiskMb: 900,
        minFreeDiskMb: 200,
        logLinesLost: 0,
        replication: {
          ...replica,
          bucketError: "403 Forbidden",
          lagSeconds: null,
          mediaPending: 3,
          problems: ["Хранилище реплики недоступно: 403 Forbidden"],
        },
      },
      now,
    );
    expect(card.value).toBe("Проблем: 1");
    expect(card.notes).toEqual([
      "Хранилище реплики недоступно: 403 Forbidden",
      "Свободно на диске: 900 МБ",
      "Резервная копия в хранилище: https://storage.yandexcloud.net auto-backups/dealership",
      "Изображений ждут отправки: 3",
    ]);
  });
});
