import type {
  GameOptions,
  Phase,
  RoleId,
  RollName,
  CouncilAnswer,
  NightAction,
  Vote,
} from "@forum-mafia/engine";
import { FOUND_LISTED } from "@forum-mafia/protocol";
import type { Dialect, ThreadFound } from "@forum-mafia/protocol";
import { ApiError, badRequest } from "../http/errors.ts";

/**
 * Issue 18: the notebook's document, as stored: its inputs, decisions and corrections (notebook.ts rebuilds
 * the match from it and checks each change), how it is written and read, and how a document written before
 * issue 28 is read today.
 */

/** One input of a phase, in the order entered. Seats are numbers; names are read from the match. */
export type DocInput =
  | { readonly kind: "act"; readonly seat: number; readonly action: NightAction }
  | {
      readonly kind: "vote";
      readonly seat: number;
      readonly vote: Vote;
      readonly source:
        | { readonly kind: "thread"; readonly post: number; readonly label: string | null }
        | { readonly kind: "gm" };
    }
  | { readonly kind: "modkill"; readonly seat: number; readonly reason: string }
  | { readonly kind: "replace"; readonly seat: number; readonly name: string; readonly reason: string };

/** A phase's inputs and, for a night, the GM's decisions (F2: fixed rolls, the council's answer, M2c). */
export interface DocPhase {
  readonly inputs: readonly DocInput[];
  readonly rolls: Partial<Readonly<Record<RollName, boolean>>>;
  readonly rollsReason: string;
  readonly council: CouncilAnswer | null;
  readonly councilReason: string;
  /** Day: what the last paste found (shown again until the day closes). */
  readonly found: ThreadFound | null;
  /** Day: the thread votes the GM removed, kept out of a later paste of the same day: seat and post. */
  readonly removed: readonly { readonly seat: number; readonly post: number }[];
}

export interface DocCorrection {
  readonly phase: Phase;
  readonly kind: string;
  readonly detail: string;
  readonly reason: string;
}

export interface NotebookDoc {
  readonly format: 1;
  /** The nicks at the deal, in seat order. */
  readonly players: readonly string[];
  /** S3: the role list as the GM gave it. */
  readonly roles: readonly RoleId[];
  /** S1: each seat's role as dealt (from the seed, or by the GM's hand). */
  readonly dealt: readonly RoleId[];
  readonly options: GameOptions;
  /** F1: the seed of a random deal (also the rolls' stream); null for a hand deal. */
  readonly seed: string | null;
  readonly dialect: Dialect;
  /** Issue 30: the GM's nick on their forum (the vote counter's `gm`), or null when none was given. */
  readonly gm: string | null;
  readonly aliases: readonly (readonly string[])[];
  readonly closed: readonly DocPhase[];
  readonly current: DocPhase;
  readonly corrections: readonly DocCorrection[];
}

export const emptyPhase = (): DocPhase => ({
  inputs: [],
  rolls: {},
  rollsReason: "",
  council: null,
  councilReason: "",
  found: null,
  removed: [],
});

/** The notebook's document as stored. */
export const writeDoc = (doc: NotebookDoc): string => JSON.stringify(doc);

/** A found author as documents written before issue 30 keep them: no GM flag. */
type AuthorBefore30 = Omit<ThreadFound["authors"][number], "gm"> & { readonly gm?: boolean };

/** A paste's findings as stored in any version of the document. */
type StoredFound = Omit<ThreadFound, "authors" | "flags" | "flagCount"> & {
  readonly authors: readonly AuthorBefore30[];
  /** Before issue 31: no G5 flags. */
  readonly flags?: ThreadFound["flags"];
  readonly flagCount?: number;
  /** Before issue 28: every post's label. */
  readonly labels?: readonly (string | null)[];
};

/**
 * A stored document (written by writeDoc; the store holds nothing else). Documents of every earlier
 * version are read in today's form: before issue 28 a paste's findings were unbounded (foundBefore28);
 * before issue 30 the document had no GM nick (read as none, so old pastes and new ones alike are counted
 * as they were until the GM gives one) and its found authors no GM flag (none was the GM); before issue 31
 * a paste's findings had no G5 flags (read as none: the thread is no longer at hand to check).
 */
export function readDoc(text: string): NotebookDoc {
  const stored = JSON.parse(text) as Omit<NotebookDoc, "gm" | "current"> & {
    readonly gm?: string | null;
    readonly current: Omit<DocPhase, "found"> & { readonly found: StoredFound | null };
  };
  if (stored.format !== 1) throw new Error(`notebook: unknown document format ${String(stored.format)}`);
  const found = stored.current.found;
  const current: DocPhase = {
    ...stored.current,
    found:
      found === null
        ? null
        : found.labels !== undefined
          ? foundBefore28(found, found.labels)
          : {
              ...found,
              authors: found.authors.map(authorOf),
              flags: found.flags ?? [],
              flagCount: found.flagCount ?? 0,
            },
  };
  return { ...stored, gm: stored.gm ?? null, current };
}

/** A found author in today's form: one stored before issue 30 was not the GM. */
const authorOf = (a: AuthorBefore30): ThreadFound["authors"][number] => ({
  name: a.name,
  posts: a.posts,
  seat: a.seat,
  gm: a.gm ?? false,
});

/**
 * A paste's findings as documents written before issue 28 keep them (every post's label, every vote that
 * did not count), in today's bounded form. The votes such a paste kept stay as they are: the thread is no
 * longer at hand; pasting it again keeps only each seat's last.
 */
function foundBefore28(
  found: Omit<StoredFound, "ignored"> & {
    readonly ignored: readonly Omit<ThreadFound["ignored"][number], "label">[];
  },
  labels: readonly (string | null)[],
): ThreadFound {
  let unknown = 0;
  return {
    kind: found.kind,
    engine: found.engine,
    posts: found.posts,
    authors: found.authors.filter((a) => a.seat !== null || unknown++ < FOUND_LISTED).map(authorOf),
    authorCount: found.authors.length,
    first: found.first,
    last: found.last,
    ignored: found.ignored
      .slice(-FOUND_LISTED)
      .map((x) => ({ post: x.post, label: labels[x.post] ?? null, text: x.text, reason: x.reason })),
    ignoredCount: found.ignored.length,
    flags: [],
    flagCount: 0,
    replaced: 0,
  };
}

/** The document with a new phase in play (and its corrections log). */
export const withCurrent = (
  doc: NotebookDoc,
  current: DocPhase,
  corrections = doc.corrections,
): NotebookDoc => ({
  ...doc,
  current,
  corrections,
});

/** S1, S3: a hand deal must be the role list as a multiset. */
export function handDealFault(roles: readonly RoleId[], dealtRoles: readonly RoleId[]): ApiError | null {
  const count = (list: readonly RoleId[]): Map<RoleId, number> => {
    const out = new Map<RoleId, number>();
    for (const r of list) out.set(r, (out.get(r) ?? 0) + 1);
    return out;
  };
  const a = count(roles);
  const b = count(dealtRoles);
  const same = dealtRoles.length === roles.length && [...a].every(([r, n]) => b.get(r) === n);
  return same
    ? null
    : badRequest(
        "deal.roles",
        `deal.roles: the hand deal must give out exactly the role list (${roles.length} roles), each role as often as the list has it`,
        "S3",
      );
}
