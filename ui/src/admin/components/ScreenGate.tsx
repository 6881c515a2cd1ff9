/** A screen behind its capability: the role that may not open it gets the
 * refusal inside the admin layout instead, and the screen's chunk is never
 * loaded nor its API asked. */
import { Link } from "wouter";
import { useAuth } from "../auth";
import { screenAllowed } from "../navigation";
import type { AdminScreen } from "../screens";
import { AdminPage } from "./AdminPage";

export const NOT_ALLOWED = "Недостаточно прав: вашей роли этот раздел недоступен";

export function ScreenGate({ screen }: { screen: AdminScreen }) {
  const { capabilities } = useAuth();
  if (!screenAllowed(screen, capabilities)) return <NotAllowed screen={screen} />;
  const Screen = screen.component;
  return <Screen />;
}

export function NotAllowed({ screen }: { screen: AdminScreen }) {
  return (
    <AdminPage title={`Нет доступа: ${screen.label}`}>
      <p data-testid="not-allowed">
        {NOT_ALLOWED}. <Link href="/">Вернуться в панель администратора</Link>
      </p>
    </AdminPage>
  );
}
