export function parseColor(text: string): [number, number, number, number];
export function over(color: string, background: string): string;
export function luminance(color: string): number;
export function contrast(a: string, b: string): number;
