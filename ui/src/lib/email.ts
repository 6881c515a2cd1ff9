/** Mirrors the server's e-mail check: one '@', something before it, a dot
 * inside the domain, no spaces. */
export function isEmail(value: string): boolean {
  const at = value.indexOf("@");
  if (at <= 0 || value.indexOf("@", at + 1) !== -1) return false;
  const domain = value.slice(at + 1);
  return (
    domain.includes(".") && !domain.startsWith(".") && !domain.endsWith(".") && !/\s/.test(value)
  );
}
