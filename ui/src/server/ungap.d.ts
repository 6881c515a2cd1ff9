// The package's own types are not reachable through its "exports".
declare module "@ungap/url-search-params" {
  const Polyfill: typeof URLSearchParams;
  export default Polyfill;
}
