/** Staff roles as the panel names them (docs/admin.md, "Roles"). What each
 * role may do comes from the server with the session (`Me.capabilities`),
 * never from a table of the panel's own. */
import type { Role } from "../api/types";

export const ROLE_LABELS: Record<Role, string> = {
  owner: "Владелец",
  manager: "Менеджер по продажам",
  editor: "Контент-менеджер",
  viewer: "Наблюдатель",
};

/** The role's name on screen; an unknown one (a newer server) as it came. */
export function roleLabel(role: Role | string | null | undefined): string | null {
  if (!role) return null;
  return (ROLE_LABELS as Record<string, string>)[role] ?? role;
}
