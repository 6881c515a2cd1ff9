import { cached } from "../api/client";
import type { BodyTypeInfo } from "../api/types";
import { BODY_TYPES } from "../api/urls";
import { bodyTypeName } from "../lib/labels";
import { useApi } from "./useApi";

function cachedList(): BodyTypeInfo[] | undefined {
  try {
    return cached<BodyTypeInfo[]>(BODY_TYPES);
  } catch {
    return undefined;
  }
}

/** The singular names of body types for pages that do not read the
 * body-type table themselves (a car, compare): the table when this visit
 * has it already, the six defaults, and the table read only when a code is
 * none of these. A name still on its way is undefined; once the table is read
 * (or cannot be), a code it lacks stands for its name. */
export function useBodyTypeNames(codes: readonly string[]): (code: string) => string | undefined {
  const list = cachedList();
  const missing = codes.some((code) => bodyTypeName(code, list) === undefined);
  const table = useApi<BodyTypeInfo[]>(missing ? BODY_TYPES : null);
  const types = table.data ?? list;
  const settled = table.data !== undefined || table.error !== undefined;
  return (code) => bodyTypeName(code, types) ?? (settled ? code : undefined);
}
