/** How a forum writes BBCode tags: phpBB, SMF and Discourse in lower case, vBulletin, XenForo and IPB in upper. */
export type BBCodeDialect = "lower" | "upper";

/** The tags the app writes; other bracketed text is left alone. */
const TAGS = new Set([
  "b",
  "i",
  "u",
  "s",
  "quote",
  "color",
  "size",
  "url",
  "img",
  "list",
  "*",
  "spoiler",
  "code",
]);
/** `[tag]`, `[/tag]` or `[tag=value]`; the value holds no bracket or line break (no backtracking). */
const TAG = /\[(\/?)([a-z*]{1,8})(?:=([^\]\n]{0,200}))?\]/giu;

/** Colour names as vBulletin's and XenForo's editors write them. */
const COLOUR_NAMES: ReadonlyMap<string, string> = new Map([
  ["red", "Red"],
  ["blue", "Blue"],
  ["darkred", "DarkRed"],
  ["navy", "Navy"],
  ["darkblue", "DarkBlue"],
  ["royalblue", "RoyalBlue"],
  ["green", "Green"],
  ["black", "Black"],
  ["gray", "Gray"],
  ["grey", "Gray"],
]);

/**
 * The app's BBCode in a forum's dialect: "lower" leaves it as it is (`[b]`, `[color=red]`); "upper"
 * writes the tags in capitals with quoted values, `[B]`, `[COLOR="Red"]`, `[COLOR="Blue"]`,
 * `[QUOTE="Name"]`. Text between tags is never changed.
 */
export function bbcodeDialect(bbcode: string, dialect: BBCodeDialect): string {
  if (dialect === "lower") return bbcode;
  return bbcode.replace(TAG, (whole, slash: string, name: string, value: string | undefined) => {
    const tag = name.toLowerCase();
    if (!TAGS.has(tag)) return whole;
    const upper = tag.toUpperCase();
    if (slash === "/" || value === undefined) return `[${slash}${upper}]`;
    const bare = value.replace(/^(["'])(.*)\1$/u, "$2");
    const written = tag === "color" ? (COLOUR_NAMES.get(bare.toLowerCase()) ?? bare) : bare;
    return `[${upper}="${written.replaceAll('"', "")}"]`;
  });
}
