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
        <FilterSelect
          id={filter.id}
          label={filter.label}
          value={state.filter}
          options={filter.options}
          onChange={(filter) => onChange({ ...state, filter })}
        />
      )}
    </div>
  );
}

/** A labelled select of a filter row. */
export function FilterSelect({
  id,
  name,
  testId,
  label,
  value,
  options,
  onChange,
}: {
  id: string;
  name?: string;
  testId?: string;
  label: string;
  value: string;
  options: readonly { value: string; label: string }[];
  onChange: (value: string) => void;
}) {
  return (
    <div>
      <label for={id}>{label}</label>
      <select
        id={id}
        name={name}
        data-testid={testId}
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}
