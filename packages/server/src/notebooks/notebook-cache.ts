import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { rebuild, type Built } from "./notebook.ts";
import { readDoc, type NotebookDoc } from "./notebook-doc.ts";

/** How an answer travels: compressed as the client accepts (the app's compression, issue 12), or not. */
export type Encoding = "br" | "gzip" | "identity";

/** The app's compression's settings (@fastify/compress's brotli quality 4, for text). */
const ENCODE: Record<Exclude<Encoding, "identity">, (b: Buffer) => Buffer> = {
  br: (b) =>
    brotliCompressSync(b, {
      params: {
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_QUALITY]: 4,
      },
    }),
  gzip: (b) => gzipSync(b),
};

/**
 * The encoding to send in, from an Accept-Encoding header: brotli, else gzip, as the app's compression
 * prefers; identity when neither is accepted (absent, or refused with `q=0`).
 */
export function encodingFor(header: string | undefined): Encoding {
  const accepted = new Set<string>();
  for (const part of (header ?? "").split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    if (name && !(q !== undefined && Number(q.slice(2)) === 0)) accepted.add(name);
  }
  if (accepted.has("br")) return "br";
  if (accepted.has("gzip")) return "gzip";
  return "identity";
}

/** What one version of a notebook has already cost: its document read, its match rebuilt, its answers written. */
interface Entry {
  readonly version: number;
  readonly doc: NotebookDoc;
  readonly built: Built;
  /** The answers as sent, by what they answer (see NotebookCache.bytes), each serialised once. */
  readonly bytes: Map<string, Buffer>;
  /** The bytes held in `bytes`. */
  held: number;
}

/** At most this many notebooks' versions are kept (a GM's list of 100 fits twice over). */
export const NOTEBOOK_CACHE_ENTRIES = 256;
/** At most this many bytes of serialised answers are kept, all notebooks together. */
export const NOTEBOOK_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * Issue 28: a read never redoes what an earlier read or write already did. The match a notebook's document
 * replays to, and every answer built from it, depend on the stored row alone, and the row's version
 * changes with every write (`UPDATE … WHERE version = ?`, `version + 1`). So they are kept per notebook id
 * at one version: a read of the same version takes the kept match and sends the kept bytes; a read that
 * finds a newer version (written here or by another instance) builds it once and replaces the old one; a
 * write keeps what it built at the version it wrote. Least recently used notebooks go first beyond
 * NOTEBOOK_CACHE_ENTRIES or NOTEBOOK_CACHE_BYTES.
 *
 * Nothing here checks who asks: the routes check the owner, or that the notebook is published, before they
 * ask for an answer, and each kind of answer has its own key (the owner's view in each language, the
 * owner's replay file, the published notebook), so an answer built for the owner is never sent as the
 * published one.
 */
export class NotebookCache {
  private readonly entries = new Map<string, Entry>();
  private held = 0;

  constructor(
    private readonly maxEntries = NOTEBOOK_CACHE_ENTRIES,
    private readonly maxBytes = NOTEBOOK_CACHE_BYTES,
  ) {}

  /** The document of a stored row and its match: read and rebuilt at most once per version. */
  read(id: string, version: number, stored: string): { doc: NotebookDoc; built: Built } {
    const hit = this.entries.get(id);
    if (hit && hit.version === version) {
      this.touch(id, hit);
      return hit;
    }
    const doc = readDoc(stored);
    const built = rebuild(doc);
    this.keep(id, version, doc, built);
    return { doc, built };
  }

  /** A document just written at `version`, with the match the write rebuilt it to. */
  keep(id: string, version: number, doc: NotebookDoc, built: Built): void {
    const old = this.entries.get(id);
    if (old && old.version > version) return; // a later version is already here (another request's)
    this.drop(id);
    this.entries.set(id, { version, doc, built, bytes: new Map(), held: 0 });
    this.evict();
  }

  /**
   * The answer `key` of a kept version as sent: `make()` serialised (and compressed, for `encoding`) on the
   * first call, the same bytes after. Keys: `view:ru`, `view:en` (the owner's NotebookView), `replay` (the
   * owner's file), `published`.
   */
  bytes(
    id: string,
    version: number,
    key: string,
    make: () => unknown,
    encoding: Encoding = "identity",
  ): Buffer {
    const entry = this.entries.get(id);
    const current = entry?.version === version ? entry : undefined;
    const keptAs = current?.bytes.get(`${key} ${encoding}`);
    if (keptAs) return keptAs;
    const json = current?.bytes.get(`${key} identity`) ?? Buffer.from(JSON.stringify(make()));
    const out = encoding === "identity" ? json : ENCODE[encoding](json);
    if (current) {
      for (const [k, b] of [[`${key} identity`, json] as const, [`${key} ${encoding}`, out] as const]) {
        if (current.bytes.has(k)) continue;
        current.bytes.set(k, b);
        current.held += b.length;
        this.held += b.length;
      }
      this.evict();
    }
    return out;
  }

  /** Forget a notebook (deleted). */
  drop(id: string): void {
    const old = this.entries.get(id);
    if (!old) return;
    this.held -= old.held;
    this.entries.delete(id);
  }

  /** How many notebooks are kept, and the bytes of their answers. */
  get stats(): { readonly entries: number; readonly bytes: number } {
    return { entries: this.entries.size, bytes: this.held };
  }

  private touch(id: string, entry: Entry): void {
    this.entries.delete(id);
    this.entries.set(id, entry);
  }

  private evict(): void {
    for (const id of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries && this.held <= this.maxBytes) return;
      this.drop(id);
    }
  }
}
