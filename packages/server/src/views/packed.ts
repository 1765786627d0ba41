import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import { negotiate } from "@fastify/accept-negotiator";
import type { Room } from "../log/room.ts";

/**
 * Issue 19: the answers every guest of a game gets alike (a game's detail without a session), compressed
 * once per change of the game instead of once per request: after a vote, hundreds of readers who fetch the
 * game again cost one compression, not hundreds. The app's compression plugin leaves an answer that already
 * has a Content-Encoding alone; the settings are the plugin's (brotli at quality 4, gzip's default).
 */
export type Encoding = "br" | "gzip";

const packers: Record<Encoding, (body: string) => Promise<Buffer>> = {
  br: (body) =>
    promisify(brotliCompress)(body, {
      params: {
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_QUALITY]: 4,
      },
    }),
  gzip: (body) => promisify(gzip)(body),
};

/** Below this an answer is sent as it is (the plugin's threshold). */
const THRESHOLD = 1024;

/** The encoding a client accepts best, or null (none, or the answer is too small to pack). */
export function encodingFor(acceptEncoding: string | undefined, body: string): Encoding | null {
  if (!acceptEncoding || body.length < THRESHOLD) return null;
  return negotiate<Encoding>(acceptEncoding, ["br", "gzip"]);
}

const PACKED = new WeakMap<Room, Map<string, { readonly body: string; readonly bytes: Promise<Buffer> }>>();

/**
 * `body` packed with `encoding`, kept on the room under `key` until the body changes. The body is compared
 * whole, so a stale entry is never served.
 */
export function packed(room: Room, key: string, body: string, encoding: Encoding): Promise<Buffer> {
  let byKey = PACKED.get(room);
  if (!byKey) PACKED.set(room, (byKey = new Map()));
  const k = `${key}|${encoding}`;
  const kept = byKey.get(k);
  if (kept && kept.body === body) return kept.bytes;
  const bytes = packers[encoding](body);
  byKey.set(k, { body, bytes });
  // A failed compression is not kept: the next request tries again.
  bytes.catch(() => {
    if (byKey.get(k)?.bytes === bytes) byKey.delete(k);
  });
  return bytes;
}
