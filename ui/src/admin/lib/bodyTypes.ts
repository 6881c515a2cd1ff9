/** The body-types screen: the dealership's own list (the six built-in types
 * and any added by staff or by the feed importer). Adding one: its code, the
 * address of its page, and its names; deleting one that is not built in and
 * has no cars (the server refuses otherwise, in its own words). */
import type { components } from "../../api/schema";
import type { BodyTypeInfo } from "../../api/types";
import { isBodyTypeCode } from "../../lib/labels";
import { bodyTypePath } from "../../routes";

export type BodyTypeCreate = components["schemas"]["BodyTypeCreate"];

/** The server's words (POST /api/body-types). */
export const BODY_TYPE_CODE_INVALID = "Код — латинские буквы, цифры и дефис, до 50 символов";
export const BODY_TYPE_EXISTS = "Такой тип кузова уже есть";
export const BODY_TYPE_CODE_HINT = "Латиницей, например minivan; станет адресом /body-type/код";

/** What the add form holds. */
export interface BodyTypeNewValues {
  bodyType: string;
  labelPlural: string;
  labelSingle: string;
  imageUrl: string;
  imageUrlMobile: string;
}

/** A code as typed, as it is sent: no spaces around, lower case ("Minivan" is "minivan"). */
export function bodyTypeCode(text: string): string {
  return text.trim().toLowerCase();
}

/** The code's check: the server's shape, and not one the list has already. */
export function bodyTypeCodeRule(existing: readonly Pick<BodyTypeInfo, "bodyType">[]) {
  return (text: string): true | string => {
    const code = bodyTypeCode(text);
    if (!isBodyTypeCode(code)) return BODY_TYPE_CODE_INVALID;
    return !existing.some((t) => t.bodyType === code) || BODY_TYPE_EXISTS;
  };
}

/** The body of POST /api/body-types; banners left empty are left out. */
export function bodyTypeCreatePayload(v: BodyTypeNewValues): BodyTypeCreate {
  const body: BodyTypeCreate = {
    bodyType: bodyTypeCode(v.bodyType),
    labelPlural: v.labelPlural.trim(),
    labelSingle: v.labelSingle.trim(),
  };
  if (v.imageUrl) body.imageUrl = v.imageUrl;
  if (v.imageUrlMobile) body.imageUrlMobile = v.imageUrlMobile;
  return body;
}

/** Only a type staff or an import added can be deleted. */
export function canDelete(info: Pick<BodyTypeInfo, "builtIn">): boolean {
  return !info.builtIn;
}

/** What the delete confirmation says. */
export function deleteMessage(info: Pick<BodyTypeInfo, "bodyType" | "labelPlural">): string {
  return `Тип кузова «${info.labelPlural}» будет удалён, страница ${bodyTypePath(info.bodyType)} перестанет открываться.`;
}
