import { rgbOf, type SafeColor } from "./color.ts";

/** The two colours a vote can have (V1). */
export type VoteColor = "red" | "blue";

/**
 * V2: which colours count as a red or a blue vote. The colour (a CSS name through its sRGB value, or a
 * hex value) is read in HSL, and it is a vote colour only when it is clearly coloured and neither near
 * black nor pale: saturation at least 40% and lightness from 15% to 70%. Then
 * - red: hue from 345° through 0° to 10°: red, darkred, maroon, firebrick, crimson, brown, indianred,
 *   tomato, #f00, #ff0000, #800000, #c00;
 * - blue: hue from 200° to 250°: blue, navy, darkblue, mediumblue, midnightblue, royalblue, dodgerblue,
 *   cornflowerblue, steelblue, slateblue, mediumslateblue, #00f, #0000ff, #000080, #06f.
 * Anything else is no vote: orange, orangered and coral (hue past 10°), pink, salmon and lightcoral
 * (too pale), deepskyblue, skyblue and lightblue (too cyan or pale), purple, green, grey, black, white.
 */
export function voteColorOf(color: SafeColor): VoteColor | null {
  const { hue, saturation, lightness } = hslOf(color);
  if (saturation < 0.4 || lightness < 0.15 || lightness > 0.7) return null;
  if (hue >= 345 || hue <= 10) return "red";
  if (hue >= 200 && hue <= 250) return "blue";
  return null;
}

interface Hsl {
  /** Degrees, 0 ≤ hue < 360. */
  readonly hue: number;
  /** 0–1. */
  readonly saturation: number;
  /** 0–1. */
  readonly lightness: number;
}

function hslOf(color: SafeColor): Hsl {
  const { r, g, b } = rgbOf(color);
  const [red, green, blue] = [r / 255, g / 255, b / 255];
  const max = Math.max(red, green, blue);
  const min = Math.min(red, green, blue);
  const lightness = (max + min) / 2;
  const chroma = max - min;
  if (chroma === 0) return { hue: 0, saturation: 0, lightness };
  const saturation = chroma / (1 - Math.abs(2 * lightness - 1));
  const sector =
    max === red
      ? (green - blue) / chroma
      : max === green
        ? (blue - red) / chroma + 2
        : (red - green) / chroma + 4;
  const hue = (sector * 60 + 360) % 360;
  return { hue, saturation, lightness };
}
