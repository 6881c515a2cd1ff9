/** The site's self-checks (docs/self-checks.md): what would embarrass the dealer
 * or get it fined, each with a link to the admin screen that fixes it. */
import type { components } from "../../api/schema";
import { plural } from "../../lib/format";

export const CHECKS_URL = "/api/admin/checks";

export type Severity = components["schemas"]["Severity"];
export type CheckKind = components["schemas"]["CheckKind"];
/** One thing to fix; its `link` is the admin UI path that opens the object,
 * e.g. `/admin/promotions?edit=…`. */
export type Problem = components["schemas"]["Problem"];
export type Checks = components["schemas"]["ChecksReport"];

export interface ProblemGroup {
  severity: Severity;
  title: string;
  problems: Problem[];
}

const GROUP_TITLES: Record<Severity, string> = {
  error: "Ошибки",
  warning: "Предупреждения",
};

/** Errors first, then warnings, each in the server's order; empty groups left out. */
export function groupProblems(problems: readonly Problem[]): ProblemGroup[] {
  return (["error", "warning"] as const)
    .map((severity) => ({
      severity,
      title: GROUP_TITLES[severity],
      problems: problems.filter((p) => p.severity === severity),
    }))
    .filter((g) => g.problems.length > 0);
}

/** A path of the admin UI as a link inside the panel: `/admin/cars?edit=1`
 * is `/cars?edit=1` under the panel's router; anything else stays absolute
 * (`~` leaves the panel's base). */
export function panelHref(link: string): string {
  if (link === "/admin") return "/";
  if (link.startsWith("/admin/") || link.startsWith("/admin?") || link.startsWith("/admin#"))
    return link.slice("/admin".length) || "/";
  return `~${link}`;
}

const PROBLEM_FORMS: [string, string, string] = ["проблема", "проблемы", "проблем"];

/** "1 проблема", "3 проблемы", "5 проблем". */
export function problemsText(n: number): string {
  return `${n} ${plural(n, PROBLEM_FORMS)}`;
}

/** The object a self-check's link names: `?edit=<id>` of a location's search part. */
export function editParam(search: string): string | null {
  const id = new URLSearchParams(search).get("edit")?.trim();
  return id ? id : null;
}
