import type { GameDetail, UserView } from "@forum-mafia/protocol";
import {
  useId,
  useImperativeHandle,
  useRef,
  useState,
  type FormEvent,
  type KeyboardEvent,
  type Ref,
} from "react";
import { api } from "../../api.ts";
import { errorText, useLang, useT, type Dict } from "../../i18n/index.tsx";
import { useSession } from "../../session.tsx";
import type { GameData } from "../../use-game.ts";

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

/**
 * The reply box under the thread: BBCode toolbar (wraps the selection or inserts an empty pair with the
 * caret inside), a player picker for a red or blue vote, Ctrl+Enter sends.
 */
export function Composer(props: { id: string; game: GameData; handle?: Ref<ComposerHandle> }) {
  const t = useT();
  const { lang } = useLang();
  const { user } = useSession();
  const [text, setText] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [picking, setPicking] = useState<"red" | "blue" | null>(null);
  const [pick, setPick] = useState("");
  const area = useRef<HTMLTextAreaElement>(null);
  const textId = useId();
  const pickId = useId();
  const c = t.game.composer;

  /** Replace the selection with `before + selection + after`; the caret lands inside or the text stays selected. */
  const edit = (before: string, after: string) => {
    const el = area.current;
    const value = el ? el.value : text;
    const start = el ? el.selectionStart : value.length;
    const end = el ? el.selectionEnd : value.length;
    const selected = value.slice(start, end);
    const next = value.slice(0, start) + before + selected + after + value.slice(end);
    setText(next);
    setDone(false);
    requestAnimationFrame(() => {
      const a = area.current;
      if (!a) return;
      a.focus();
      if (selected) a.setSelectionRange(start + before.length, start + before.length + selected.length);
      else a.setSelectionRange(start + before.length, start + before.length);
    });
  };

  useImperativeHandle(
    props.handle,
    () => ({
      insert(quote: string) {
        const el = area.current;
        const value = el ? el.value : "";
        const sep = value && !value.endsWith("\n") ? "\n" : "";
        const next = value + sep + quote;
        setText(next);
        setDone(false);
        requestAnimationFrame(() => {
          const a = area.current;
          if (!a) return;
          a.focus();
          a.setSelectionRange(next.length, next.length);
          a.scrollIntoView({ block: "center" });
        });
      },
    }),
    [],
  );

  const detail = props.game.detail;
  if (!detail) return null;
  const blocked = postBlock(detail, user, t);
  if (blocked)
    return (
      <p className="notice composer-blocked" id="composer">
        {blocked}
      </p>
    );

  const wrap = (tag: Tag) => edit(`[${tag}]`, `[/${tag}]`);
  const mySeat = detail.me.seat;
  const targets = (detail.view?.seats ?? []).filter((s) => s.alive && s.seat !== mySeat);

  const send = async () => {
    if (busy) return;
    if (!text.trim()) {
      setError(c.empty);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await api.post(props.id, text);
      setText("");
      setDone(true);
      props.game.refresh();
    } catch (e) {
      setError(errorText(e, lang));
    } finally {
      setBusy(false);
    }
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void send();
  };
  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      void send();
    }
  };
  const openPicker = (color: "red" | "blue") => {
    setPicking(picking === color ? null : color);
    setPick(targets[0]?.name ?? "");
  };
  const insertVote = () => {
    if (!picking || !pick) return;
    const el = area.current;
    const at = el ? el.selectionEnd : text.length;
    const value = el ? el.value : text;
    const vote = `[color=${picking}]${pick}[/color]`;
    const next = value.slice(0, at) + vote + value.slice(at);
    setText(next);
    setPicking(null);
    requestAnimationFrame(() => {
      const a = area.current;
      if (!a) return;
      a.focus();
      a.setSelectionRange(at + vote.length, at + vote.length);
    });
  };

  return (
    <form className="composer card" id="composer" onSubmit={onSubmit}>
      <label htmlFor={textId} className="composer-label">
        {c.label}
      </label>
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
        {detail.me.kind === "player" && (
          <>
            <button
              type="button"
              className="tool-red"
              aria-label={c.red}
              title={c.red}
              aria-expanded={picking === "red"}
              onClick={() => openPicker("red")}
            >
              <span aria-hidden="true" className="dot dot-red" />
              <span aria-hidden="true">{c.redShort}</span>
            </button>
            <button
              type="button"
              className="tool-blue"
              aria-label={c.blue}
              title={c.blue}
              aria-expanded={picking === "blue"}
              onClick={() => openPicker("blue")}
            >
              <span aria-hidden="true" className="dot dot-blue" />
              <span aria-hidden="true">{c.blueShort}</span>
            </button>
          </>
        )}
      </div>
      {picking &&
        (targets.length === 0 ? (
          <p className="muted">{c.noPlayers}</p>
        ) : (
          <div className="row composer-picker">
            <label htmlFor={pickId}>{picking === "red" ? c.pickRed : c.pickBlue}</label>
            <select id={pickId} value={pick} onChange={(e) => setPick(e.target.value)}>
              {targets.map((s) => (
                <option key={s.seat} value={s.name}>
                  {s.name}
                </option>
              ))}
            </select>
            <button type="button" className={picking} onClick={insertVote}>
              {c.insert}
            </button>
            <button type="button" onClick={() => setPicking(null)}>
              {t.cancel}
            </button>
          </div>
        ))}
      <textarea
        id={textId}
        ref={area}
        rows={4}
        value={text}
        maxLength={10_000}
        onChange={(e) => {
          setText(e.target.value);
          setDone(false);
        }}
        onKeyDown={onKey}
        aria-describedby={`${textId}-hint`}
      />
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <div className="row composer-send">
        <button type="submit" className="primary" disabled={busy}>
          {busy ? c.sending : t.send}
        </button>
        <span className="muted" id={`${textId}-hint`}>
          {c.hint}
        </span>
        <span className="ok" role="status">
          {done ? c.sent : ""}
        </span>
      </div>
    </form>
  );
}
