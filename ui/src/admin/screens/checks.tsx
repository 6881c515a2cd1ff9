/** "Проверка сайта": what the self-checks found (expired promotions, credit
 * offers without the bank or the ПСК, cars without photos, a VIN or a price,
 * missing consent or privacy texts, ads without a token; docs/self-checks.md),
 * errors first, each with a link to the screen that fixes it. */
import { Link } from "wouter";
import type { Capability } from "../../api/types";
import { useAuth } from "../auth";
import { AdminPage } from "../components/AdminPage";
import { ErrorPanel } from "../components/ErrorPanel";
import { SkeletonCards } from "../components/SkeletonCards";
import { CHECKS_URL, type Checks, groupProblems, panelHref, problemsText } from "../lib/checks";
import { longDateTime } from "../lib/dates";
import { screenAllowed, screenAt } from "../navigation";
import { useAdminQuery } from "../query";
import "./content.css";
import "./staff.css";

const BADGES = { error: "badge-red", warning: "badge-orange" } as const;

export default function ChecksScreen() {
  const { capabilities } = useAuth();
  const checks = useAdminQuery<Checks>(CHECKS_URL);
  const data = checks.data;
  const groups = data ? groupProblems(data.problems) : [];
  return (
    <AdminPage
      title="Проверка сайта"
      count={data ? data.count : null}
      actions={
        <button
          type="button"
          class="secondary outline"
          aria-busy={checks.isFetching || undefined}
          disabled={checks.isFetching}
          onClick={() => void checks.refetch()}
        >
          Проверить снова
        </button>
      }
    >
      <p class="muted">
        Что может смутить покупателя или привести к штрафу: просроченные акции, ставки без названия
        банка, программы без ПСК, автомобили без фото, VIN или цены, пустые тексты согласия и
        политики, реклама без токена (erid). Проверка идёт после каждого изменения и каждую ночь.
      </p>
      {checks.isError && !data ? (
        <ErrorPanel
          error={checks.error}
          title="Не удалось выполнить проверку"
          url={CHECKS_URL}
          onRetry={() => void checks.refetch()}
        />
      ) : !data ? (
        <SkeletonCards count={3} label="Проверка…" />
      ) : (
        <>
          <p class="stat-note" data-testid="checked-at" aria-live="polite">
            Проверено <time dateTime={data.checkedAt}>{longDateTime(data.checkedAt)}</time>
            {data.count > 0 ? `: ${problemsText(data.count)}` : ""}
          </p>
          {groups.length === 0 ? (
            <p class="empty-state" data-testid="empty">
              Проблем не найдено
            </p>
          ) : (
            groups.map((g) => (
              <section
                key={g.severity}
                class="check-group"
                aria-labelledby={`checks-${g.severity}`}
                data-testid={`checks-${g.severity}`}
              >
                <h2 id={`checks-${g.severity}`}>
                  {g.title}
                  <span class={`badge ${BADGES[g.severity]}`}>{g.problems.length}</span>
                </h2>
                <ul class="check-list">
                  {g.problems.map((p) => (
                    <li
                      key={`${p.check}:${p.objectId ?? ""}:${p.detail}`}
                      data-testid="problem"
                      data-check={p.check}
                      data-object={p.objectId ?? undefined}
                    >
                      <h3>{p.title}</h3>
                      {p.detail && <p class="muted">{p.detail}</p>}
                      <FixLink
                        href={panelHref(p.link)}
                        title={p.title}
                        capabilities={capabilities}
                      />
                    </li>
                  ))}
                </ul>
              </section>
            ))
          )}
        </>
      )}
    </AdminPage>
  );
}

/** The link to the screen that fixes a problem: "Исправить" for a role that
 * may change it there, "Открыть" for one that may only look, none for one
 * that may not open that screen. */
function FixLink({
  href,
  title,
  capabilities,
}: {
  href: string;
  title: string;
  capabilities: readonly Capability[];
}) {
  const screen = screenAt(href);
  if (screen && !screenAllowed(screen, capabilities)) return null;
  const fixes = screen?.capability !== "catalogueRead" || capabilities.includes("catalogueWrite");
  const verb = fixes ? "Исправить" : "Открыть";
  return (
    <Link href={href} class="check-fix" aria-label={`${verb}: ${title}`}>
      {verb}
    </Link>
  );
}
