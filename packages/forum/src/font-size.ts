/** The smallest and largest text `[size]` gives, in percent of a post's normal text. */
export const MIN_SIZE_PERCENT = 75;
export const MAX_SIZE_PERCENT = 200;

/** The CSS pixel sizes of HTML's font sizes 1–7 (x-small … xxx-large); 3 is the normal 16px. */
const HTML_FONT_SIZES = [10, 13, 16, 18, 24, 32, 48] as const;
const NORMAL_PX = 16;
const NORMAL_PT = 12;

const SIZE = /^(\d+(?:\.\d+)?)(pt|px|%|r?em)?$/;

/**
 * The value of `[size=…]` as a whole percentage of a post's normal text, between MIN_SIZE_PERCENT and
 * MAX_SIZE_PERCENT, or null when it is no size. Forums write sizes three ways, told apart by the number:
 * 1–7 are HTML font sizes (vBulletin, IPB, `<font size>`), 8–36 are points (SMF, XenForo) and larger
 * numbers are percentages (phpBB's 50–200). A unit says which it is: `pt`, `px`, `%`, `em` or `rem`.
 * Zero, signs, exponents and anything else are no size.
 */
export function sizePercent(value: string): number | null {
  const match = SIZE.exec(
    value
      .trim()
      .replace(/^'(.*)'$/, "$1")
      .toLowerCase(),
  );
  if (match === null) return null;
  const number = Number(match[1]);
  if (!(number > 0)) return null;
  const percent = ((): number | null => {
    switch (match[2]) {
      case "pt":
        return (number / NORMAL_PT) * 100;
      case "px":
        return (number / NORMAL_PX) * 100;
      case "%":
        return number;
      case "em":
      case "rem":
        return number * 100;
      default: {
        if (number <= HTML_FONT_SIZES.length) {
          const px = Number.isInteger(number) ? HTML_FONT_SIZES[number - 1] : undefined;
          return px === undefined ? null : (px / NORMAL_PX) * 100;
        }
        return number <= 36 ? (number / NORMAL_PT) * 100 : number;
      }
    }
  })();
  return percent === null
    ? null
    : Math.round(Math.min(MAX_SIZE_PERCENT, Math.max(MIN_SIZE_PERCENT, percent)));
}
