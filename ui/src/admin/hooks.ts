import { useCallback, useEffect, useRef, useState } from "react";
import { useLocation, useSearch } from "wouter";
import { editParam } from "./lib/checks";
import { toastError } from "./toast";

/** `value` once it has stopped changing for `ms` (search as you type
 * without a request per key). */
export function useDebounced<T>(value: T, ms = 300): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), ms);
    return () => window.clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** The object a self-check's link names (`?edit=<id>`), and a function that
 * drops the parameter when its editor closes (the address is the plain
 * screen at `path` under /admin again). */
export function useEditParam(path: string): [string | null, () => void] {
  const id = editParam(useSearch());
  const [, navigate] = useLocation();
  const drop = useCallback(() => {
    if (editParam(window.location.search)) navigate(path, { replace: true });
  }, [navigate, path]);
  return [id, drop];
}

interface EditLinkOptions<T> {
  /** The screen's path under /admin ("/promotions"). */
  path: string;
  /** The screen's objects; undefined while they load. */
  items: readonly T[] | undefined;
  /** Opens the object's editor. */
  open: (item: T) => void;
  /** Said when the list lacks the object (deleted since). */
  missing: string;
}

/** `?edit=<id>` opens that object's editor once the screen has its objects
 * (once per id); answers the function to call when the editor closes. */
export function useEditLink<T extends { id: string }>({
  path,
  items,
  open,
  missing,
}: EditLinkOptions<T>): () => void {
  const [id, drop] = useEditParam(path);
  const opened = useRef<string | null>(null);
  useEffect(() => {
    if (!id) {
      opened.current = null;
      return;
    }
    if (!items || opened.current === id) return;
    opened.current = id;
    const found = items.find((item) => item.id === id);
    if (found) open(found);
    else {
      toastError(missing);
      drop();
    }
  }, [id, items, open, missing, drop]);
  return drop;
}
