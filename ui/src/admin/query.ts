/** Server state of the admin panel: @tanstack/react-query over the site's
 * API client (src/api/client.ts). Admin reads are always fresh (never the
 * client's cached answer), refetched on focus and after every write; a 401
 * anywhere hands over to the login gate (auth.ts). */
import {
  MutationCache,
  QueryCache,
  QueryClient,
  type UseQueryOptions,
  useMutation,
  useQuery,
} from "@tanstack/react-query";
import { ApiError, apiGet } from "../api/client";
import { sessionRefused } from "./auth";
import { errorMessage, isSilent, isUnauthorized } from "./errors";
import { toastError, toastSuccess } from "./toast";

/** Retries of a failed read: none for a refusal (4xx), up to 3 otherwise. */
export function shouldRetry(failures: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status < 500) return false;
  return failures < 3;
}

export function createAdminQueryClient(): QueryClient {
  const onError = (error: unknown) => {
    if (isUnauthorized(error)) sessionRefused();
  };
  return new QueryClient({
    queryCache: new QueryCache({ onError }),
    mutationCache: new MutationCache({ onError }),
    defaultOptions: {
      queries: {
        staleTime: 0,
        gcTime: 5 * 60 * 1000,
        refetchOnWindowFocus: true,
        retry: shouldRetry,
        retryDelay: (n) => Math.min(500 * 2 ** n, 4000),
      },
      mutations: { retry: false },
    },
  });
}

export const queryClient = createAdminQueryClient();

type QueryExtras<T> = Omit<UseQueryOptions<T, Error, T, [string]>, "queryKey" | "queryFn">;

/** A fresh GET of `url` (null: not yet). The URL is the cache key, so two
 * screens reading one URL share it. */
export function useAdminQuery<T>(url: string | null, options: QueryExtras<T> = {}) {
  return useQuery<T, Error, T, [string]>({
    queryKey: [url ?? ""],
    queryFn: ({ signal }) => fetchFresh<T>(url ?? "", signal),
    enabled: url !== null && (options.enabled ?? true),
    ...options,
  });
}

/** apiGet skipping the client's cache; a cancelled query stops waiting. */
function fetchFresh<T>(url: string, signal: AbortSignal): Promise<T> {
  const request = apiGet<T>(url, { fresh: true });
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new DOMException("Запрос отменён", "AbortError"));
    if (signal.aborted) onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    request.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

export interface AdminMutationOptions<TData, TVars> {
  /** The 'Успешно' toast's text (nothing when absent). */
  success?: string | ((data: TData, vars: TVars) => string);
  /** The 'Ошибка' toast's text when the server gave no message of its own. */
  failure?: string;
  /** Handles the failure instead of the toast (a form: applyServerError). */
  onFailure?: (error: unknown, vars: TVars) => void;
  onSuccess?: (data: TData, vars: TVars) => void;
}

/** A write: on success every admin read is refetched and the success toast
 * shown; on failure the error toast (or `onFailure`), except for a 401, which
 * brings the login screen over the current one. */
export function useAdminMutation<TData = unknown, TVars = void>(
  write: (vars: TVars) => Promise<TData>,
  options: AdminMutationOptions<TData, TVars> = {},
) {
  return useMutation<TData, unknown, TVars>({
    mutationFn: write,
    onSuccess: (data, vars) => {
      const { success } = options;
      if (success) toastSuccess(typeof success === "function" ? success(data, vars) : success);
      options.onSuccess?.(data, vars);
      void queryClient.invalidateQueries();
    },
    onError: (error, vars) => {
      if (isSilent(error)) return;
      if (options.onFailure) options.onFailure(error, vars);
      else toastError(errorMessage(error, options.failure ?? "Не удалось выполнить действие"));
    },
  });
}
