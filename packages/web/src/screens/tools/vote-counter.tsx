import type { PasteFound, VoteCountResult } from "@forum-mafia/protocol";
import { useId, useRef, useState, type ClipboardEvent, type FormEvent } from "react";
import { api, ApiFailure } from "../../api.ts";
import { errorText, useLang, useT } from "../../i18n/index.tsx";
import { CopyBox } from "../../copy.tsx";
import { parseJson, savedPageOrText, Submit, TextFile } from "./common.tsx";
import { G5Flags } from "./g5-flags.tsx";
import { addAlias, addPlayer, rosterPlayers } from "./roster.ts";
import { emptySpoilers } from "./spoilers.ts";

/**
 * The vote counter (issue 6) over a thread as the GM has it (issue 18): pasted from the forum page (the
 * clipboard's HTML, with the colours), a saved page, the posts' BBCode, or today's JSON array of posts.
 * A pasted thread is read first and the page shows what was found (posts, authors, the forum's engine),
 * where the GM fixes the player list; then «Посчитать голоса» counts it on the server.
 */

/** What the thread box holds: the text shown, and the page's HTML kept beside it (never shown, never lost). */
interface ThreadBox {
  readonly text: string;
  /**
   * The clipboard's text/html, or a saved page's or .txt file's bytes in base64 (issue 30: decoded on the
   * server, whatever their encoding), or null when the text is the thread.
   */
  readonly kept: { readonly html: string } | { readonly file: string } | null;
  /** What the box's text came from, for the note under it. */
  readonly origin:
    | { readonly kind: "typed" }
    | { readonly kind: "clipboard"; readonly kb: number; readonly emptySpoilers: number }
    | { readonly kind: "page"; readonly name: string; readonly kb: number }
    | { readonly kind: "file"; readonly name: string }
    | { readonly kind: "edited" };
}

type Paste = { readonly html: string } | { readonly text: string } | { readonly file: string };
type Source =
  | { readonly kind: "empty" }
  | { readonly kind: "json"; readonly value: unknown }
  | { readonly kind: "bad-json" }
  | { readonly kind: "paste"; readonly paste: Paste };

const EMPTY: ThreadBox = { text: "", kept: null, origin: { kind: "typed" } };

const kb = (s: string): number => Math.max(1, Math.round(new Blob([s]).size / 1024));

/**
 * How the box is sent: the kept HTML; else JSON when it reads as a JSON array of posts (today's format;
 * text starting with `[{` or `{` that does not parse is a JSON mistake); else the text as pasted (BBCode
 * or plain).
 */
function sourceOf(box: ThreadBox): Source {
  if (box.kept !== null) return { kind: "paste", paste: box.kept };
  const text = box.text.trim();
  if (text === "") return { kind: "empty" };
  if (text.startsWith("[") || text.startsWith("{")) {
    const parsed = parseJson(text);
    if (parsed.ok) return { kind: "json", value: parsed.value };
    if (/^(\[\s*\{|\{)/.test(text)) return { kind: "bad-json" };
  }
  return { kind: "paste", paste: { text: box.text } };
}

/** Saved pages and their sources: read as HTML, not as text. */
const looksLikePage = (name: string, text: string): boolean =>
  /\.html?$/i.test(name) || /^\s*<(!doctype|html|head|body|meta)\b/i.test(text);

const lines = (text: string): string[] =>
  text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== "");

/** The server takes one tools request at a time from an address: the page sends them one after another. */
function useSerial(): <T>(work: () => Promise<T>) => Promise<T> {
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  return <T,>(work: () => Promise<T>): Promise<T> => {
    const next = queue.current.then(work, work);
    queue.current = next.catch(() => undefined);
    return next;
  };
}

/** What a paste was found to hold, and against which player list its authors were marked. */
interface Reading {
  readonly found: PasteFound;
  readonly players: string;
}

/**
 * Reading a pasted thread (POST /api/tools/thread) before counting: only the last reading asked for is
 * shown; `forget` drops what was found (the text was edited by hand).
 */
function useReading(
  serially: ReturnType<typeof useSerial>,
  onError: (err: unknown | null) => void,
): {
  found: Reading | null;
  setFound: (r: Reading | null) => void;
  reading: boolean;
  read: (box: ThreadBox, players: string) => void;
  forget: () => void;
} {
  const [found, setFound] = useState<Reading | null>(null);
  const [reading, setReading] = useState(false);
  const latest = useRef(0);
  const read = (box: ThreadBox, players: string) => {
    const source = sourceOf(box);
    const ask = ++latest.current;
    if (source.kind !== "paste") return setFound(null);
    setReading(true);
    onError(null);
    void serially(() => api.tools.thread({ ...(players.trim() ? { players } : {}), paste: source.paste }))
      .then(
        (f) => {
          if (ask === latest.current) setFound({ found: f, players });
        },
        (err: unknown) => {
          if (ask !== latest.current) return;
          setFound(null);
          onError(err);
        },
      )
      .finally(() => {
        if (ask === latest.current) setReading(false);
      });
  };
  const forget = () => {
    latest.current++;
    setFound(null);
    setReading(false);
  };
  return { found, setFound, reading, read, forget };
}

export function VoteCounter() {
  const t = useT();
  const { lang } = useLang();
  const v = t.gm.tools.vc;
  const [players, setPlayers] = useState("");
  const [gm, setGm] = useState("");
  const [day, setDay] = useState("");
  const [silenced, setSilenced] = useState("");
  const [box, setBox] = useState<ThreadBox>(EMPTY);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<VoteCountResult | null>(null);
  const serially = useSerial();

  /** The words for a refusal: the paste's own, else the app's. */
  const refusal = (err: unknown): string =>
    err instanceof ApiFailure && err.code === "invalid" && /^(paste|thread)\b(?!\.file)/.test(err.message)
      ? v.pasteUnread
      : errorText(err, lang);
  const { found, setFound, reading, read, forget } = useReading(serially, (err) =>
    setError(err === null ? null : refusal(err)),
  );

  const changeBox = (next: ThreadBox, readNow: boolean) => {
    setBox(next);
    setResult(null);
    if (readNow) read(next, players);
    else forget();
  };

  /** The player list changed from the authors' list: the marks are read again against it. */
  const changePlayers = (roster: string) => {
    setPlayers(roster);
    read(box, roster);
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    const source = sourceOf(box);
    if (source.kind === "empty") return setError(v.pasteEmpty);
    if (source.kind === "bad-json") return setError(t.gm.tools.notJson(v.thread));
    setBusy(true);
    void serially(() =>
      api.tools.voteCount({
        players,
        ...(gm.trim() ? { gm: gm.trim() } : {}),
        ...(day ? { day: Number(day) } : {}),
        silenced: lines(silenced),
        ...(source.kind === "json" ? { thread: source.value } : { paste: source.paste }),
      }),
    )
      .then(
        (r) => {
          setResult(r);
          if (r.found) setFound({ found: r.found, players });
        },
        (err: unknown) => {
          setResult(null);
          setError(refusal(err));
        },
      )
      .finally(() => setBusy(false));
  };

  const source = sourceOf(box);
  return (
    <div className="card">
      <h2>{v.heading}</h2>
      <form onSubmit={submit}>
        <Flags
          players={players}
          gm={gm}
          day={day}
          silenced={silenced}
          onPlayers={setPlayers}
          onPlayersDone={() => {
            if (found !== null && found.players !== players) read(box, players);
          }}
          onGm={setGm}
          onDay={setDay}
          onSilenced={setSilenced}
        />
        <ThreadInput box={box} onChange={changeBox} />
        {source.kind === "paste" && found === null && !reading && (
          <button type="button" onClick={() => read(box, players)}>
            {v.read}
          </button>
        )}
        {reading && (
          <p className="muted" role="status">
            {v.reading}
          </p>
        )}
        {found !== null && source.kind === "paste" && (
          <Found
            found={found.found}
            players={players}
            gm={gm}
            onPlayers={changePlayers}
            stale={found.players !== players}
          />
        )}
        <Submit label={v.submit} busy={busy} error={error} />
      </form>
      {result && <VoteCountReport result={result} />}
    </div>
  );
}

/** The count's inputs beside the thread: the player list, the GM, the day and who cannot vote. */
function Flags(props: {
  players: string;
  gm: string;
  day: string;
  silenced: string;
  onPlayers: (s: string) => void;
  onPlayersDone: () => void;
  onGm: (s: string) => void;
  onDay: (s: string) => void;
  onSilenced: (s: string) => void;
}) {
  const v = useT().gm.tools.vc;
  const hintPlayers = useId();
  return (
    <>
      <div className="field">
        <label>
          <span className="field-label">{v.players}</span>
          <textarea
            required
            rows={6}
            aria-describedby={hintPlayers}
            value={props.players}
            onChange={(e) => props.onPlayers(e.target.value)}
            onBlur={props.onPlayersDone}
          />
        </label>
        <small id={hintPlayers} className="muted">
          {v.playersHint}
        </small>
      </div>
      <div className="row two">
        <label className="field">
          <span>{v.gm}</span>
          <input maxLength={64} value={props.gm} onChange={(e) => props.onGm(e.target.value)} />
        </label>
        <label className="field">
          <span>{v.day}</span>
          <input
            type="number"
            inputMode="numeric"
            min={1}
            max={999}
            step={1}
            value={props.day}
            onChange={(e) => props.onDay(e.target.value)}
          />
        </label>
      </div>
      <label className="field">
        <span>{v.silenced}</span>
        <textarea rows={2} value={props.silenced} onChange={(e) => props.onSilenced(e.target.value)} />
      </label>
    </>
  );
}

/**
 * The thread box: a paste keeps the clipboard's HTML (the colours are there) and shows its plain text; a
 * plain paste goes in where the cursor is. Files: a saved page (.html) or BBCode (.txt), sent as their bytes
 * (issue 30), or JSON, read here.
 */
function ThreadInput(props: { box: ThreadBox; onChange: (next: ThreadBox, readNow: boolean) => void }) {
  const v = useT().gm.tools.vc;
  const hint = useId();
  const origin = props.box.origin;

  const paste = (e: ClipboardEvent<HTMLTextAreaElement>) => {
    const html = e.clipboardData.getData("text/html");
    const plain = e.clipboardData.getData("text/plain");
    e.preventDefault();
    if (html.trim() !== "") {
      const size = kb(html);
      const text = plain.trim() !== "" ? plain : v.htmlKept(size);
      return props.onChange(
        { text, kept: { html }, origin: { kind: "clipboard", kb: size, emptySpoilers: emptySpoilers(html) } },
        true,
      );
    }
    // Plain text (BBCode, plain or JSON) goes where the cursor is, as a paste would put it.
    const el = e.currentTarget;
    const before = props.box.kept === null ? props.box.text : "";
    const start = props.box.kept === null ? el.selectionStart : 0;
    const end = props.box.kept === null ? el.selectionEnd : 0;
    const text = before.slice(0, start) + plain + before.slice(end);
    props.onChange({ text, kept: null, origin: { kind: "typed" } }, true);
  };

  const file = (text: string, name: string) => {
    if (looksLikePage(name, text)) {
      const size = kb(text);
      props.onChange(
        { text: v.savedPage(name, size), kept: { html: text }, origin: { kind: "page", name, kb: size } },
        true,
      );
    } else props.onChange({ text, kept: null, origin: { kind: "file", name } }, true);
  };
  // Issue 30: a saved page or .txt is kept as its bytes, for the server to decode; the box says what it is.
  const bytes = (file: string, name: string, size: number) => {
    const kb = Math.max(1, Math.round(size / 1024));
    props.onChange({ text: v.savedPage(name, kb), kept: { file }, origin: { kind: "page", name, kb } }, true);
  };

  return (
    <>
      <div className="field">
        <label>
          <span className="field-label">{v.thread}</span>
          <textarea
            rows={6}
            spellCheck={false}
            aria-describedby={hint}
            value={props.box.text}
            onPaste={paste}
            onChange={(e) =>
              props.onChange(
                {
                  text: e.target.value,
                  kept: null,
                  origin: props.box.kept !== null ? { kind: "edited" } : { kind: "typed" },
                },
                false,
              )
            }
          />
        </label>
        <small id={hint} className="muted">
          {v.threadHint}
        </small>
        {origin.kind === "clipboard" && (
          <p className="muted" role="status">
            {v.htmlKept(origin.kb)}
          </p>
        )}
        {origin.kind === "clipboard" && origin.emptySpoilers > 0 && (
          <p className="tool-note" role="alert">
            {v.emptySpoilers(origin.emptySpoilers)}
          </p>
        )}
        {origin.kind === "edited" && (
          <p className="muted" role="status">
            {v.htmlDropped}
          </p>
        )}
      </div>
      <TextFile
        label={v.file}
        accept=".html,.htm,.txt,.json,text/html,text/plain,application/json"
        file={origin.kind === "page" || origin.kind === "file" ? origin.name : null}
        onRead={file}
        asBytes={savedPageOrText}
        onBytes={bytes}
      />
    </>
  );
}

/**
 * What the paste holds, before counting: how many posts by how many authors, from which post to which, the
 * forum's engine, and each author marked as a player of the list or not, with a way to add them as a
 * player or as another name of one; the posts that break G5 (issue 31). Plain text has no colours: the
 * page says how to copy with them.
 */
function Found(props: {
  found: PasteFound;
  players: string;
  gm: string;
  onPlayers: (roster: string) => void;
  stale: boolean;
}) {
  const v = useT().gm.tools.vc;
  const f = props.found;
  const names = rosterPlayers(props.players);
  const gmKey = props.gm.trim().toLowerCase();
  const headingId = useId();
  return (
    <section className="tool-found" aria-labelledby={headingId}>
      <h3 id={headingId}>{v.found}</h3>
      <p role="status">
        {f.posts === 0 ? v.noPosts : v.foundSummary(f.posts, f.authors.length, f.first, f.last)}
      </p>
      <p className="muted">
        {f.engine !== null ? v.engine(v.engines[f.engine]) : f.kind === "bbcode" ? v.kindBbcode : v.kindText}
      </p>
      {f.kind === "text" && (
        <p className="tool-note" role="note">
          {v.noColours}
        </p>
      )}
      {f.authors.length > 0 && (
        <>
          <h4>{v.authors}</h4>
          <ul className="plain tool-authors">
            {f.authors.map((a) => (
              <Author
                key={a.name}
                author={a}
                isGm={gmKey !== "" && a.name.trim().toLowerCase() === gmKey}
                players={names}
                stale={props.stale}
                onAdd={() => props.onPlayers(addPlayer(props.players, a.name))}
                onAlias={(player) => props.onPlayers(addAlias(props.players, player, a.name))}
              />
            ))}
          </ul>
        </>
      )}
      <G5Flags flags={f.flags} level={4} />
    </section>
  );
}

function Author(props: {
  author: PasteFound["authors"][number];
  isGm: boolean;
  players: readonly string[];
  stale: boolean;
  onAdd: () => void;
  onAlias: (player: string) => void;
}) {
  const v = useT().gm.tools.vc;
  const a = props.author;
  const [alias, setAlias] = useState("");
  const selectId = useId();
  const status = props.isGm
    ? v.isGm
    : a.player === null
      ? v.notInList
      : a.player === a.name
        ? v.inList
        : v.isPlayer(a.player);
  return (
    <li className={a.player === null && !props.isGm ? "author unknown" : "author"}>
      <span>
        <strong>{a.name}</strong> — {v.authorPosts(a.posts)} — {status}
      </span>
      {a.player === null && !props.isGm && !props.stale && (
        <div className="author-fix">
          <button type="button" aria-label={v.addPlayerLabel(a.name)} onClick={props.onAdd}>
            {v.addPlayer}
          </button>
          {props.players.length > 0 && (
            <span className="alias">
              <label htmlFor={selectId} className="sr-only">
                {v.aliasOf(a.name)}
              </label>
              <select id={selectId} value={alias} onChange={(e) => setAlias(e.target.value)}>
                <option value="">{v.choosePlayer}</option>
                {props.players.map((p) => (
                  <option key={p} value={p}>
                    {p}
                  </option>
                ))}
              </select>
              <button
                type="button"
                aria-label={v.addAliasLabel(a.name)}
                disabled={alias === ""}
                onClick={() => props.onAlias(alias)}
              >
                {v.addAlias}
              </button>
            </span>
          )}
        </div>
      )}
    </li>
  );
}

/**
 * A post as the report names it: a pasted thread's post by its number or anchor on the forum (1-based when
 * the reader found none); a JSON thread's by its index in the array, as `npm run votecount` prints it.
 */
const postName = (result: VoteCountResult, post: number): string =>
  result.found ? (result.found.labels[post] ?? String(post + 1)) : String(post);

/** The count as a post to copy, every vote read with its post, who did not vote, and what was ignored. */
function VoteCountReport(props: { result: VoteCountResult }) {
  const tools = useT().gm.tools;
  const v = tools.vc;
  const result = props.result;
  return (
    <div className="tool-result">
      <CopyBox label={v.result} copyLabel={v.copyLabel} text={result.count} words={tools} primary />
      <h3>{v.votes}</h3>
      {result.votes.length === 0 ? (
        <p className="muted">{v.noVotes}</p>
      ) : (
        <ul>
          {result.votes.map((x) => (
            <li key={x.by}>
              <span className={x.red !== undefined ? "vote-red" : "vote-blue"}>
                {v.vote(
                  x.by,
                  x.red !== undefined ? v.red : v.blue,
                  x.red ?? x.blue ?? "",
                  x.early,
                  postName(result, x.post),
                )}
              </span>
            </li>
          ))}
        </ul>
      )}
      {result.notVoted.length > 0 && (
        <p>
          <strong>{v.notVoted}:</strong> {result.notVoted.join(", ")}
        </p>
      )}
      <h3>{v.ignored}</h3>
      {result.ignored.length === 0 ? (
        <p className="muted">{v.noIgnored}</p>
      ) : (
        <ul>
          {result.ignored.map((x, i) => (
            <li key={i}>{v.ignoredLine(postName(result, x.post), x.text, x.reason)}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
