import { useEffect, useState } from "react";
import { ApiError, apiGet, cached } from "../api/client";

export interface ApiState<T> {
  data: T | undefined;
  error: ApiError | Error | undefined;
  loading: boolean;
}

function initial<T>(url: string | null): ApiState<T> {
  if (!url) return { data: undefined, error: undefined, loading: false };
  try {
    const data = cached<T>(url);
    return { data, error: undefined, loading: data === undefined };
  } catch (e) {
    return { data: undefined, error: e as Error, loading: false };
  }
}

/** Server data for a URL: synchronous when the page embedded it. */
export function useApi<T>(url: string | null): ApiState<T> {
  const [state, setState] = useState<ApiState<T> & { url: string | null }>(() => ({
    ...initial<T>(url),
    url,
  }));
  const current = state.url === url ? state : { ...initial<T>(url), url };

  useEffect(() => {
    if (!url) return;
    let live = true;
    const start = initial<T>(url);
    if (!start.loading) {
      // What the first render showed (the page's embedded answer) keeps the
      // same state: taking a server page over re-renders nothing.
      setState((shown) =>
        shown.url === url && shown.data === start.data && shown.error === start.error
          ? shown
          : { ...start, url },
      );
      return;
    }
    setState({ ...start, url });
    apiGet<T>(url).then(
      (data) => live && setState({ data, error: undefined, loading: false, url }),
      (error: Error) => live && setState({ data: undefined, error, loading: false, url }),
    );
    return () => {
      live = false;
    };
  }, [url]);

  return current;
}

export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}
