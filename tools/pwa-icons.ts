/**
 * Issue 32: render the installed app's icons (packages/web/public/*.png) from their SVG sources with Debian's
 * chromium, once; the PNGs are committed. Run again after changing an SVG:
 *
 *   npx tsx tools/pwa-icons.ts
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "playwright-core";

const PUBLIC = join(import.meta.dirname, "../packages/web/public");
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Each PNG: its source SVG and its side in pixels. */
const ICONS: readonly { svg: string; png: string; size: number }[] = [
  { svg: "icon.svg", png: "icon-192.png", size: 192 },
  { svg: "icon.svg", png: "icon-512.png", size: 512 },
  { svg: "icon-maskable.svg", png: "icon-maskable-512.png", size: 512 },
  // iOS rounds the corners itself: the full square.
  { svg: "icon-maskable.svg", png: "apple-touch-icon.png", size: 180 },
];

const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--headless"] });
try {
  for (const icon of ICONS) {
    const page = await browser.newPage({ viewport: { width: icon.size, height: icon.size } });
    const svg = readFileSync(join(PUBLIC, icon.svg), "utf8");
    await page.setContent(
      `<html><body style="margin:0;background:transparent">` +
        `<img src="data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}" ` +
        `width="${icon.size}" height="${icon.size}" style="display:block"></body></html>`,
    );
    // A string: tools/ is type-checked without the browser's types.
    await page.waitForFunction("document.images[0].complete && document.images[0].naturalWidth > 0");
    writeFileSync(join(PUBLIC, icon.png), await page.screenshot({ omitBackground: true }));
    await page.close();
    console.log(`${icon.png}: ${icon.size}×${icon.size}`);
  }
} finally {
  await browser.close();
}
