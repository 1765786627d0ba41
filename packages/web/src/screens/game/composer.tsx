import type { GameDetail, Lang, PostPreview, UserView } from "@forum-mafia/protocol";
import {
  useEffect,
  useId,
  useImperativeHandle,
  useRef,
  useState,
  type FormEvent,
  type KeyboardEvent,
  type Ref,
  type RefObject,
} from "react";
import { api, ApiFailure } from "../../api.ts";
import { errorText, useLang, useT, type Dict } from "../../i18n/index.tsx";
import { useSession } from "../../session.tsx";
import { useArrival, type GameData } from "../../use-game.ts";
import { G5Warning } from "./g5-warning.tsx";

/** What the thread asks of the composer: put a quote in and focus it. */
export interface ComposerHandle {
  insert(text: string): void;
}

/** Why this viewer may not write in the thread now, or null if they may (G7: the dead are silent). */
export function postBlock(detail: GameDetail, user: UserView | null, t: Dict): string | null {
  if (!user) return t.game.composer.guest;
  if (detail.me.kind === "gm") return null;
  if (detail.me.kind !== "player" || detail.me.seat === null) return t.game.composer.notPlayer;
  if (detail.summary.status === "ended") return null;
  const seat = detail.view?.seats[detail.me.seat];
  if (seat && !seat.alive) return t.game.composer.dead;
  return null;
}

type Tag = "b" | "i" | "quote" | "spoiler";

/** How long the composer waits after the last keystroke before asking what the draft counts as. */
const PREVIEW_DELAY_MS = 300;
/** Coloured text longer than this is shortened in the warning. */
const SHOWN_TEXT = 40;

/** A touch screen (no keyboard shortcuts to offer): the primary pointer is coarse. */
export function useCoarsePointer(): boolean {
  const [coarse] = useState(
    () => typeof window.matchMedia === "function" && window.matchMedia("(pointer: coarse)").matches,
  );
  return coarse;
}

/**
 * What the draft will count as, asked of the server (the same code that counts posts, V2) after the
 * typing stops; a newer draft aborts the request for an older one. Null while there is nothing to say.
 */
function usePreview(id: string, text: string, enabled: boolean, phase: string): PostPreview | null {
  const [preview, setPreview] = useState<{ text: string; phase: string; answer: PostPreview } | null>(null);
  const draft = text.trim();
  useEffect(() => {
    if (!enabled || !draft) return;
    const abort = new AbortController();
    const timer = setTimeout(() => {
      api.preview(id, draft, abort.signal).then(
        (answer) => {
          if (!abort.signal.aborted) setPreview({ text: draft, phase, answer });
        },
        () => {
          // A refused or failed preview says nothing; the post itself will say why it is refused.
        },
      );
    }, PREVIEW_DELAY_MS);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [id, draft, enabled, phase]);
  // An answer for another draft (or another phase) is stale: show nothing rather than a wrong reading.
  return enabled && preview && preview.text === draft && preview.phase === phase ? preview.answer : null;
}

/** The preview in words: the vote, why it would be refused, coloured text that names nobody, the night. */
function PreviewLines(props: { preview: PostPreview; gm: boolean; lang: Lang; t: Dict }) {
  const { preview: p, t } = props;
  const c = t.game.composer;
  const shorten = (s: string) => (s.length > SHOWN_TEXT ? `${s.slice(0, SHOWN_TEXT - 1)}…` : s);
  const lines: { key: string; text: string; kind: "vote" | "warn" | "info" }[] = [];
  if (props.gm) lines.push({ key: "gm", text: c.gmNotVotes, kind: "info" });
  else if (p.night) lines.push({ key: "night", text: c.nightNotVotes, kind: "info" });
  if (p.vote)
    lines.push({ key: "vote", text: c.preview(p.vote.color, p.vote.name, p.vote.early), kind: "vote" });
  if (p.refused) {
    const why = errorText(
      new ApiFailure(400, p.refused.code, p.refused.message, p.refused.clause),
      props.lang,
    );
    lines.push({ key: "refused", text: c.refused(why), kind: "warn" });
  }
  if (p.counts && !p.night)
    p.unmatched.forEach((u, i) =>
      lines.push({ key: `u${i}`, text: c.unmatched(shorten(u.text), u.nearest), kind: "warn" }),
    );
  if (lines.length === 0) return null;
  const classOf = (kind: "vote" | "warn" | "info"): string =>
    kind === "warn"
      ? "notice"
      : kind === "info"
        ? "muted"
        : p.vote?.color === "red"
          ? "vote-red"
          : "vote-blue";
  return (
    <div className="composer-preview">
      {lines.map((l) => (
        <p key={l.key} className={classOf(l.kind)}>
          {l.text}
        </p>
      ))}
    </div>
  );
}

/** Focus the box once the new text is in, with the caret (or the selection) at `from`…`to`. */
function focusAt(area: RefObject<HTMLTextAreaElement | null>, from: number, to: number, scroll = false) {
  requestAnimationFrame(() => {
    const a = area.current;
    if (!a) return;
    a.focus();
    a.setSelectionRange(from, to);
    if (scroll) a.scrollIntoView({ block: "center" });
  });
}

/**
 * The draft in the box and the edits the buttons make to it: wrap the selection in a tag, put a vote at the
 * caret, append a quote (the thread's `handle`). `done` says the last draft was sent and nothing typed since.
 */
function useDraft(handle: Ref<ComposerHandle> | undefined) {
  const [text, setText] = useState("");
  const [done, setDone] = useState(false);
  const area = useRef<HTMLTextAreaElement>(null);

  /** Replace the selection with `before + selection + after`; the caret lands inside or the text stays selected. */
  const edit = (before: string, after: string) => {
    const el = area.current;
    const value = el ? el.value : text;
    const start = el ? el.selectionStart : value.length;
    const end = el ? el.selectionEnd : value.length;
    const selected = value.slice(start, end);
    setText(value.slice(0, start) + before + selected + after + value.slice(end));
    setDone(false);
    const from = start + before.length;
    focusAt(area, from, selected ? from + selected.length : from);
  };

  /** Put `insert` at the caret, and the caret after it. */
  const insertAtCaret = (insert: string) => {
    const el = area.current;
    const at = el ? el.selectionEnd : text.length;
    const value = el ? el.value : text;
    setText(value.slice(0, at) + insert + value.slice(at));
    focusAt(area, at + insert.length, at + insert.length);
  };

  useImperativeHandle(
    handle,
    () => ({
      insert(quote: string) {
        const el = area.current;
        const value = el ? el.value : "";
        const sep = value && !value.endsWith("\n") ? "\n" : "";
        const next = value + sep + quote;
        setText(next);
        setDone(false);
        focusAt(area, next.length, next.length, true);
      },
    }),
    [],
  );

  const type = (value: string) => {
    setText(value);
    setDone(false);
  };
  const sent = () => {
    setText("");
    setDone(true);
  };
  return { text, done, area, edit, insertAtCaret, type, sent };
}

/**
 * Sending the draft: refused in words when empty, busy while the request runs and until the post shows in
 * the thread (the live stream brings it), the refusal if any.
 */
function useSendPost(id: string, text: string, sent: () => void, game: GameData) {
  const c = useT().game.composer;
  const { lang } = useLang();
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const arrival = useArrival(game);
  const busy = sending || arrival.waiting;
  const send = async () => {
    if (busy) return;
    if (!text.trim()) {
      setError(c.empty);
      return;
    }
    setSending(true);
    setError(null);
    try {
      const posted = await api.post(id, text);
      arrival.wait((g) => g.posts.some((p) => p.id === posted.id));
      sent();
    } catch (e) {
      setError(errorText(e, lang));
    } finally {
      setSending(false);
    }
  };
  return { busy, requesting: sending, error, send };
}

/**
 * The reply box under the thread: BBCode toolbar (wraps the selection or inserts an empty pair with the
 * caret inside), a player picker for a red or blue vote, Ctrl+Enter sends.
 */
export function Composer(props: { id: string; game: GameData; handle?: Ref<ComposerHandle> }) {
  const t = useT();
  const { lang } = useLang();
  const { user } = useSession();
  const [picking, setPicking] = useState<"red" | "blue" | null>(null);
  const [pick, setPick] = useState("");
  const textId = useId();
  const c = t.game.composer;
  const coarse = useCoarsePointer();
  const detail = props.game.detail;
  const draft = useDraft(props.handle);
  const mayPost = !!detail && postBlock(detail, user, t) === null;
  const phaseKey = detail?.view
    ? `${detail.summary.status}-${detail.view.phase.kind}-${detail.view.phase.number}`
    : "none";
  const preview = usePreview(props.id, draft.text, mayPost, phaseKey);
  const sending = useSendPost(props.id, draft.text, draft.sent, props.game);

  if (!detail) return null;
  const blocked = postBlock(detail, user, t);
  if (blocked)
    return (
      <p className="notice composer-blocked" id="composer">
        {blocked}
      </p>
    );

  const mySeat = detail.me.seat;
  const targets = (detail.view?.seats ?? []).filter((s) => s.alive && s.seat !== mySeat);
  // Votes are cast by day in a running game (V1, V2): no vote buttons at night or after the end.
  const voting =
    detail.me.kind === "player" && detail.summary.status === "running" && detail.view?.phase.kind === "day";

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void sending.send();
  };
  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      void sending.send();
    }
  };
  const openPicker = (color: "red" | "blue") => {
    setPicking(picking === color ? null : color);
    setPick(targets[0]?.name ?? "");
  };
  const insertVote = () => {
    if (!picking || !pick) return;
    draft.insertAtCaret(`[color=${picking}]${pick}[/color]`);
    setPicking(null);
  };

  return (
    <form className="composer card" id="composer" onSubmit={onSubmit}>
      <label htmlFor={textId} className="composer-label">
        {c.label}
      </label>
      <Toolbar
        wrap={(tag) => draft.edit(`[${tag}]`, `[/${tag}]`)}
        voting={voting}
        picking={picking}
        onVote={openPicker}
      />
      {picking && voting && (
        <VotePicker
          color={picking}
          targets={targets}
          pick={pick}
          setPick={setPick}
          onInsert={insertVote}
          onCancel={() => setPicking(null)}
        />
      )}
      <textarea
        id={textId}
        ref={draft.area}
        rows={4}
        value={draft.text}
        maxLength={10_000}
        onChange={(e) => draft.type(e.target.value)}
        onKeyDown={onKey}
        aria-describedby={`${textId}-preview`}
      />
      <div id={`${textId}-preview`} aria-live="polite">
        {preview && <PreviewLines preview={preview} gm={detail.me.kind === "gm"} lang={lang} t={t} />}
        {/* G5: the GM's own words are not flagged; a player may still send a flagged post. */}
        {preview && detail.me.kind !== "gm" && <G5Warning check={preview.profanity} />}
      </div>
      {sending.error && (
        <p className="error" role="alert">
          {sending.error}
        </p>
      )}
      <div className="row composer-send">
        <button type="submit" className="primary" disabled={sending.busy}>
          {sending.requesting ? c.sending : t.send}
        </button>
        {!coarse && <span className="muted">{c.hint}</span>}
        <span className="ok" role="status">
          {draft.done ? c.sent : ""}
        </span>
      </div>
    </form>
  );
}

/** The BBCode buttons, and by day the red and blue vote buttons that open the player picker. */
function Toolbar(props: {
  wrap: (tag: Tag) => void;
  voting: boolean;
  picking: "red" | "blue" | null;
  onVote: (color: "red" | "blue") => void;
}) {
  const c = useT().game.composer;
  const { wrap } = props;
  return (
    <div className="composer-tools" role="toolbar" aria-label={c.toolbar}>
      <button type="button" aria-label={c.bold} title={c.bold} onClick={() => wrap("b")}>
        <b aria-hidden="true">B</b>
      </button>
      <button type="button" aria-label={c.italic} title={c.italic} onClick={() => wrap("i")}>
        <i aria-hidden="true">I</i>
      </button>
      <button type="button" aria-label={c.quote} title={c.quote} onClick={() => wrap("quote")}>
        <span aria-hidden="true">«»</span>
      </button>
      <button type="button" aria-label={c.spoiler} title={c.spoiler} onClick={() => wrap("spoiler")}>
        <span aria-hidden="true">▒</span>
      </button>
      {props.voting && (
        <>
          <button
            type="button"
            className="tool-red"
            aria-label={c.red}
            title={c.red}
            aria-expanded={props.picking === "red"}
            onClick={() => props.onVote("red")}
          >
            <span aria-hidden="true" className="dot dot-red" />
            <span aria-hidden="true">{c.redShort}</span>
          </button>
          <button
            type="button"
            className="tool-blue"
            aria-label={c.blue}
            title={c.blue}
            aria-expanded={props.picking === "blue"}
            onClick={() => props.onVote("blue")}
          >
            <span aria-hidden="true" className="dot dot-blue" />
            <span aria-hidden="true">{c.blueShort}</span>
          </button>
        </>
      )}
    </div>
  );
}

/** V2: the player a red or blue vote names, put into the draft as a coloured name. */
function VotePicker(props: {
  color: "red" | "blue";
  targets: readonly { readonly seat: number; readonly name: string }[];
  pick: string;
  setPick: (name: string) => void;
  onInsert: () => void;
  onCancel: () => void;
}) {
  const t = useT();
  const c = t.game.composer;
  const pickId = useId();
  if (props.targets.length === 0) return <p className="muted">{c.noPlayers}</p>;
  return (
    <div className="row composer-picker">
      <label htmlFor={pickId}>{props.color === "red" ? c.pickRed : c.pickBlue}</label>
      <select id={pickId} value={props.pick} onChange={(e) => props.setPick(e.target.value)}>
        {props.targets.map((s) => (
          <option key={s.seat} value={s.name}>
            {s.name}
          </option>
        ))}
      </select>
      <button type="button" className={props.color} onClick={props.onInsert}>
        {c.insert}
      </button>
      <button type="button" onClick={props.onCancel}>
        {t.cancel}
      </button>
    </div>
  );
}
