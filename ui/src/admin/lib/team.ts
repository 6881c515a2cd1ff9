/** The team's pure logic (docs/admin.md, "The team"): the API's addresses,
 * each account's state in words, the checks of the user, password and
 * invitation forms (the server's own messages) and what the forms send. */
import type {
  NewStaff,
  ResetInput,
  Role,
  StaffChange,
  StaffUser,
  WorkSchedule,
} from "../../api/types";
import { shortDateTime } from "./dates";
import { email } from "./rules";
import { salonIdsChange, salonIdsOf, salonIdsValues } from "./salons";
import { type HoursValues, hoursChange, hoursSchedule, hoursValues } from "./staff-hours";

export const USERS_URL = "/api/admin/users";
export const OWN_PASSWORD_URL = "/api/admin/me/password";

export const userUrl = (id: string) => `${USERS_URL}/${encodeURIComponent(id)}`;
export const userPasswordUrl = (id: string) => `${userUrl(id)}/password`;
export const invitationApiUrl = (token: string) => `/api/invitations/${encodeURIComponent(token)}`;

/** The roles in the order the forms offer them. */
export const ROLES: readonly Role[] = ["owner", "manager", "editor", "viewer"];

/** The server's limits and messages (src/domain/users.rs, staff.rs). */
export const MIN_PASSWORD = 8;
export const MAX_USERNAME = 50;
export const MAX_NAME = 100;

export const TEAM_MESSAGES = {
  username: "Введите логин",
  usernameLength: `Имя пользователя: от 1 до ${MAX_USERNAME} символов`,
  usernameChars: "Имя пользователя не должно содержать пробелов и двоеточий",
  name: `Имя: не длиннее ${MAX_NAME} символов`,
  role: "Выберите роль",
  password: `Пароль должен быть не короче ${MIN_PASSWORD} символов`,
  currentPassword: "Введите текущий пароль",
  mismatch: "Пароли не совпадают",
} as const;

/** The invitation link's terms, said wherever a link is shown. */
export const INVITATION_TERMS = "Ссылка работает один раз в течение 24 часов.";

// ---- the list ---------------------------------------------------------------

export type UserStateKind = "blocked" | "invited" | "expired" | "temporary" | "active";

export interface UserState {
  kind: UserStateKind;
  label: string;
}

/** What the list says of an account: blocked first (nothing else matters
 * then), then an unused invitation (or one that ran out unused: the person
 * never set a password), then a one-time password not yet changed,
 * otherwise active. */
export function userState(user: StaffUser, now: Date = new Date()): UserState {
  if (user.blockedAt) return { kind: "blocked", label: "доступ закрыт" };
  if (user.invitationExpiresAt && Date.parse(user.invitationExpiresAt) <= now.getTime()) {
    return { kind: "expired", label: "приглашение истекло" };
  }
  if (user.invitationExpiresAt) {
    return {
      kind: "invited",
      label: `приглашение до ${shortDateTime(user.invitationExpiresAt)}`,
    };
  }
  if (user.mustChangePassword) return { kind: "temporary", label: "временный пароль" };
  return { kind: "active", label: "доступ открыт" };
}

/** The person as screens name them: the name, or the login without one. */
export function displayName(user: Pick<StaffUser, "name" | "username">): string {
  return user.name.trim() || user.username;
}

/** An account as a message names it: «Анна Петрова» (anna), or the login
 * alone; the message speaks of the account («Учётная запись … создана»), so
 * it reads right whoever holds it. */
export function accountName(user: Pick<StaffUser, "name" | "username">): string {
  const name = user.name.trim();
  return name && name !== user.username ? `«${name}» (${user.username})` : user.username;
}

/** "Анна Петрова (anna)", or the login alone. */
export function fullName(user: Pick<StaffUser, "name" | "username">): string {
  const name = user.name.trim();
  return name && name !== user.username ? `${name} (${user.username})` : user.username;
}

// ---- confirmations -------------------------------------------------------------

/** What may be asked before it is done: blocking and deleting. */
export type ConfirmKind = "block" | "delete";

export interface ConfirmText {
  title: string;
  message: string;
  confirmLabel: string;
}

const YOURSELF = " Это ваша учётная запись: вы выйдете из панели.";

/** The question before blocking or deleting `user`; deleting says that
 * their actions stay in the audit trail under their login. */
export function confirmText(kind: ConfirmKind, user: StaffUser, isMe: boolean): ConfirmText {
  const self = isMe ? YOURSELF : "";
  if (kind === "block") {
    return {
      title: "Заблокировать пользователя?",
      message: `${fullName(user)} не сможет войти в панель, открытые сеансы завершатся. Разблокировать можно в любой момент.${self}`,
      confirmLabel: "Заблокировать",
    };
  }
  return {
    title: "Удалить пользователя?",
    message: `Учётная запись ${fullName(user)} будет удалена: войти с ней больше не получится. Её действия останутся в журнале изменений под логином ${user.username}.${self}`,
    confirmLabel: "Удалить",
  };
}

// ---- checks -------------------------------------------------------------------

/** Characters as the server counts them (not UTF-16 units). */
const length = (value: string) => [...value].length;

/** A login: the server trims it, then wants 1–50 characters without spaces
 * or colons. */
export function checkUsername(value: string): true | string {
  const v = value.trim();
  if (v === "") return TEAM_MESSAGES.username;
  if (length(v) > MAX_USERNAME) return TEAM_MESSAGES.usernameLength;
  if (/[\s:]/u.test(v) || /\p{Cc}/u.test(v)) return TEAM_MESSAGES.usernameChars;
  return true;
}

export function checkName(value: string): true | string {
  return length(value.trim()) <= MAX_NAME || TEAM_MESSAGES.name;
}

export function checkRole(value: string): true | string {
  return (ROLES as readonly string[]).includes(value) || TEAM_MESSAGES.role;
}

/** A new password (one-time, one's own or an invitation's). */
export function checkPassword(value: string): true | string {
  return length(value) >= MIN_PASSWORD || TEAM_MESSAGES.password;
}

/** One's own e-mail (where a lead given to them is announced): empty, or
 * an address the server accepts ('Неверный формат email'). */
export const checkEmail: (value: string) => true | string = email(true);

/** The repeated password must be the same. */
export function checkRepeat(repeat: string, password: string): true | string {
  return repeat === password || TEAM_MESSAGES.mismatch;
}

// ---- forms --------------------------------------------------------------------

/** How the person gets in: an invitation link, or a one-time password. */
export type AccessMethod = "invite" | "password";

/** What the add and edit forms share besides the name and role: the
 * person's e-mail and working hours. */
export interface ContactValues extends HoursValues {
  email: string;
  /** Their number in the PBX (docs/calls.md): «Перезвоните мне» rings it. */
  pbxNumber: string;
  /** The salons they work in, the boxes checked (none: every salon); the
   * boxes show only when there are several salons. */
  salonIds: string[];
}

/** What the server refuses as a PBX number (src/domain/staff.rs). */
export const BAD_PBX_NUMBER = "Номер в АТС: внутренний номер или телефон, только цифры (до 19)";

/** An extension or a phone: digits once spaces, dashes and brackets are
 * dropped, a leading + allowed; empty is allowed. */
export function checkPbxNumber(value: string): true | string {
  const number = value.trim().replace(/[\s()-]/g, "");
  return number === "" || /^\+?\d{1,19}$/.test(number) ? true : BAD_PBX_NUMBER;
}

export interface NewUserValues extends ContactValues {
  name: string;
  username: string;
  /** Empty until chosen. */
  role: Role | "";
  method: AccessMethod;
  password: string;
}

/** The add form's start: the salon's hours (the editor prefilled with
 * `salon`, the salon's schedule, when known). */
export function newUserValues(salon?: WorkSchedule | null): NewUserValues {
  return {
    name: "",
    username: "",
    role: "",
    email: "",
    pbxNumber: "",
    salonIds: [],
    ...hoursValues(null, salon),
    method: "invite",
    password: "",
  };
}

export const NEW_USER_VALUES: NewUserValues = newUserValues();

/** The fields a refusal of the add form may name. */
export const NEW_USER_FIELDS = [
  "name",
  "username",
  "role",
  "email",
  "pbxNumber",
  "salonIds",
  "workSchedule",
  "password",
] as const;

/** What POST /api/admin/users takes: a password only for a one-time one,
 * the e-mail when given, the hours only when they are the person's own. */
export function newUserInput(values: NewUserValues): NewStaff {
  const input: NewStaff = {
    username: values.username.trim(),
    name: values.name.trim(),
    role: values.role as Role,
  };
  const address = values.email.trim();
  if (address) input.email = address;
  const pbx = values.pbxNumber.trim();
  if (pbx) input.pbxNumber = pbx;
  const salons = salonIdsOf(values.salonIds);
  if (salons.length > 0) input.salonIds = salons;
  const hours = hoursSchedule(values);
  if (hours) input.workSchedule = hours;
  if (values.method === "password") input.password = values.password;
  return input;
}

export interface EditUserValues extends ContactValues {
  name: string;
  role: Role;
}

export const EDIT_USER_FIELDS = [
  "name",
  "role",
  "email",
  "pbxNumber",
  "salonIds",
  "workSchedule",
] as const;

export function editUserValues(user: StaffUser, salon?: WorkSchedule | null): EditUserValues {
  return {
    name: user.name,
    role: user.role,
    email: user.email ?? "",
    pbxNumber: user.pbxNumber ?? "",
    salonIds: salonIdsValues(user),
    ...hoursValues(user.workSchedule, salon),
  };
}

/** Only what changed (absent fields stay); null when nothing did. An
 * emptied e-mail is sent empty (removed); going back to the salon's hours
 * sends `workSchedule: null`. */
export function staffChange(user: StaffUser, values: EditUserValues): StaffChange | null {
  const change: StaffChange = {};
  const name = values.name.trim();
  if (name !== user.name.trim()) change.name = name;
  if (values.role !== user.role) change.role = values.role;
  const address = values.email.trim();
  if (address !== (user.email ?? "").trim()) change.email = address;
  const pbx = values.pbxNumber.trim();
  if (pbx !== (user.pbxNumber ?? "").trim()) change.pbxNumber = pbx;
  const salons = salonIdsChange(user, values.salonIds);
  if (salons) change.salonIds = salons;
  const hours = hoursChange(user, values);
  if (hours !== undefined) change.workSchedule = hours;
  return Object.keys(change).length > 0 ? change : null;
}

export interface ResetValues {
  method: AccessMethod;
  password: string;
}

export const RESET_VALUES: ResetValues = { method: "invite", password: "" };

/** What POST /api/admin/users/{id}/password takes: no password makes a link. */
export function resetInput(values: ResetValues): ResetInput {
  return values.method === "password" ? { password: values.password } : {};
}

export interface OwnPasswordValues {
  currentPassword: string;
  password: string;
  repeat: string;
}

export const OWN_PASSWORD_VALUES: OwnPasswordValues = {
  currentPassword: "",
  password: "",
  repeat: "",
};

export const OWN_PASSWORD_FIELDS = ["currentPassword", "password"] as const;

export interface InvitationValues {
  password: string;
  repeat: string;
}

/** The greeting of the invitation page: by name, or by login without one. */
export function greeting(invitation: { name: string; username: string }): string {
  return `Здравствуйте, ${displayName(invitation)}!`;
}
