/** Small text helpers of the admin screens. */

/** The text cut to `max` characters with an ellipsis; whitespace runs (line
 * breaks too) become single spaces. */
export function truncate(text: string | null | undefined, max = 120): string {
  const flat = (text ?? "").replace(/\s+/g, " ").trim();
  if (flat.length <= max) return flat;
  return `${flat.slice(0, max - 1).trimEnd()}…`;
}

export { splitAdvantages } from "../../lib/banks";

/** A car as its admin card names it: brand, name and model, each said once
 * ("Lada Vesta Comfort" for the brand Lada, the name "Vesta Comfort" and the
 * model "Vesta"; a name that starts with the brand does not repeat it). */
export function adminCarTitle(car: { brandName: string; name: string; model: string }): string {
  const words = (s: string) => s.replace(/\s+/g, " ").trim();
  const brand = words(car.brandName);
  let title = words(car.name);
  if (!title.toLowerCase().startsWith(brand.toLowerCase())) title = `${brand} ${title}`.trim();
  const model = words(car.model);
  const has = ` ${title.toLowerCase()} `.includes(` ${model.toLowerCase()} `);
  return has || !model ? title : `${title} ${model}`;
}
