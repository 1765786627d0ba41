import { namedColorHex } from "./named-colors.ts";

/**
 * A colour that may go into `style="color:…"` as it is: a CSS colour name from the allow-list, or
 * `#rgb` / `#rrggbb`, always in lower case. Nothing else ever reaches the HTML.
 */
export type SafeColor = string & { readonly __safeColor: true };

/** An sRGB colour, each channel 0–255. */
export interface Rgb {
  readonly r: number;
  readonly g: number;
  readonly b: number;
}

const HEX_COLOR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/;

/** The value of `[color=…]` as a safe colour, or null: an unknown name or any other syntax is refused. */
export function safeColor(value: string): SafeColor | null {
  const lower = value.trim().toLowerCase();
  if (HEX_COLOR.test(lower) || namedColorHex(lower) !== null) return lower as SafeColor;
  return null;
}

/** The sRGB channels of a safe colour. */
export function rgbOf(color: SafeColor): Rgb {
  const hex = namedColorHex(color) ?? color;
  const digits =
    hex.length === 4 ? [...hex.slice(1)].map((d) => d + d) : [1, 3, 5].map((i) => hex.slice(i, i + 2));
  const [r, g, b] = digits.map((pair) => parseInt(pair, 16));
  return { r: r!, g: g!, b: b! };
}
