/** The search box and the filter of a resource's list: a bare box named by
 * its aria-label, or a filter row (role="search") of labelled controls. */
import type { ViewSpec, ViewState } from "./view";

interface Props<T> {
  spec: ViewSpec<T>;
  state: ViewState;
  onChange: (state: ViewState) => void;
}

export function ResourceFilters<T>({ spec: { search, filter }, state, onChange }: Props<T>) {
  if (!search && !filter) return null;
  const box = search && (
    <input
      id={search.id}
      type="search"
      aria-label={search.ariaLabel}
      placeholder={search.placeholder}
      value={state.query}
      onInput={(e) => onChange({ ...state, query: e.currentTarget.value })}
    />
  );
  if (search && !search.label && !filter) return box;
  return (
    <div class="admin-filters" role="search">
      {search && (
        <div>
          {search.label && <label for={search.id}>{search.label}</label>}
          {box}
        </div>
      )}
      {filter && (
        <div>
          <label for={filter.id}>{filter.label}</label>
          <select
            id={filter.id}
            value={state.filter}
            onChange={(e) => onChange({ ...state, filter: e.currentTarget.value })}
          >
            {filter.options.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </div>
      )}
    </div>
  );
}
