import type { NotebookView, ThreadFound } from "@forum-mafia/protocol";
import { useId, useState, type ClipboardEvent, type FormEvent } from "react";
import { useT } from "../../i18n/index.tsx";
import { useNotebookT } from "../../i18n/notebook.ts";
import { TallyTable, tallyVerdict } from "../gm/readouts.tsx";
import { emptySpoilers } from "../tools/spoilers.ts";
import { savedPageOrText, TextFile } from "../tools/common.tsx";
import { G5Flags } from "../tools/g5-flags.tsx";
import { Inputs } from "./night.tsx";
import { CloseButton, CopyBox, ReasonField, SeatSelect, useSend, usePhaseName } from "./shared.tsx";

/**
 * Issue 18, the day: the thread pasted as copied from the forum's page (the clipboard's `text/html`, else
 * its plain text or BBCode), what was found in it (posts, authors, the ones not at the table with a way to
 * add the spelling to a seat), the votes read (each removable with a reason), a vote by hand (a
 * correction), the tally by the rules (V4, V5, P1, P2) and the count post, closing the day. Issue 30: the
 * GM's nick on the forum can be given or changed here, beside the paste it is for.
 */

export function DayPanel(props: { view: NotebookView; setView: (v: NotebookView) => void }) {
  const w = useNotebookT();
  const phaseOf = usePhaseName();
  const { view, setView } = props;
  const day = view.day!;
  const id = useId();
  const close = useSend(view.id, setView);
  return (
    <section className="card nb-day" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{w.day.heading(phaseOf(view.phase))}</h2>
      <GmNick view={view} setView={setView} />
      <Paste view={view} setView={setView} />
      {day.found && <Found found={day.found} view={view} setView={setView} />}
      <Inputs view={view} setView={setView} />
      <HandVote view={view} setView={setView} />
      <Tally view={view} />
      <CopyBox label={w.page.countPost} copyLabel={w.page.copyCount(phaseOf(view.phase))} text={day.count} />
      <CloseButton close={close} label={w.day.close} busyLabel={w.day.closing} />
      {close.outcome}
    </section>
  );
}

/** Issue 30: the GM's nick on the forum (blank: none); the next paste reads that author's posts as the GM's. */
function GmNick(props: { view: NotebookView; setView: (v: NotebookView) => void }) {
  const w = useNotebookT();
  const id = useId();
  const r = useSend(props.view.id, props.setView);
  const [nick, setNick] = useState(props.view.gm ?? "");
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void r.send("gm", { gm: nick.trim() || null }, w.day.gmSaved);
  };
  return (
    <form className="nb-gm row" onSubmit={submit}>
      <label htmlFor={`${id}-gm`} className="field-label">
        {w.day.gm}
      </label>
      <input
        id={`${id}-gm`}
        maxLength={64}
        value={nick}
        onChange={(e) => setNick(e.target.value)}
        aria-describedby={`${id}-gm-hint`}
      />
      <button type="submit" disabled={r.busy || nick.trim() === (props.view.gm ?? "")}>
        {w.day.gmSave}
      </button>
      <small id={`${id}-gm-hint`} className="muted hint">
        {w.day.gmHint}
      </small>
      {r.outcome}
    </form>
  );
}

/** The paste box: a paste sends the clipboard's HTML at once (its colours are the votes); typed text is sent by the button. */
function Paste(props: { view: NotebookView; setView: (v: NotebookView) => void }) {
  const w = useNotebookT();
  const id = useId();
  const r = useSend(props.view.id, props.setView);
  const [text, setText] = useState("");
  /** The name of the file last chosen, shown under the picker. */
  const [file, setFile] = useState<string | null>(null);
  // V2: closed spoilers reach the clipboard empty (the browser copies only what is shown): say so.
  const [spoilers, setSpoilers] = useState(0);
  const onPaste = (e: ClipboardEvent<HTMLTextAreaElement>) => {
    const html = e.clipboardData.getData("text/html");
    const plain = e.clipboardData.getData("text/plain");
    if (!html && !plain) return;
    e.preventDefault();
    setText(plain);
    setSpoilers(html ? emptySpoilers(html) : 0);
    void r.send("thread", html ? { html } : { text: plain });
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (text.trim()) void r.send("thread", { text });
  };
  return (
    <form className="nb-paste" onSubmit={submit}>
      <label htmlFor={`${id}-paste`} className="field-label">
        {w.day.paste}
      </label>
      <textarea
        id={`${id}-paste`}
        rows={5}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setSpoilers(0);
        }}
        onPaste={onPaste}
        aria-describedby={`${id}-hint`}
      />
      <small id={`${id}-hint`} className="muted hint">
        {w.day.pasteHint}
      </small>
      {spoilers > 0 && (
        <p className="notice" role="alert">
          {w.day.emptySpoilers(spoilers)}
        </p>
      )}
      <TextFile
        label={w.day.file}
        accept=".html,.htm,.txt,text/html,text/plain"
        file={file}
        onRead={(read, name) => {
          setFile(name);
          setText(read);
          setSpoilers(0);
        }}
        asBytes={savedPageOrText}
        onBytes={(base64, name) => {
          // Issue 30: sent as its bytes and decoded on the server, whatever the forum's encoding.
          setFile(name);
          setText("");
          setSpoilers(0);
          void r.send("thread", { file: base64 });
        }}
      />
      <div className="row">
        <button type="submit" disabled={r.busy || !text.trim()}>
          {r.busy ? w.day.reading : w.day.send}
        </button>
      </div>
      {r.outcome}
    </form>
  );
}

/**
 * What the last paste found: posts, authors, the range; the authors who name nobody; the posts that break G5
 * (issue 31); what did not count.
 */
function Found(props: { found: ThreadFound; view: NotebookView; setView: (v: NotebookView) => void }) {
  const w = useNotebookT();
  const { found } = props;
  // Issue 30: the GM's posts are the GM's, never another spelling of a player's nick.
  const unknown = found.authors.filter((a) => a.seat === null && !a.gm);
  const gm = found.authors.find((a) => a.gm);
  return (
    <div className="nb-found" role="status">
      <p>
        <strong>{w.day.found(found.posts, found.authorCount)}</strong>
        {found.first !== null && found.last !== null && <>, {w.day.range(found.first, found.last)}</>}
      </p>
      {found.replaced > 0 && <p className="muted small">{w.day.replaced(found.replaced)}</p>}
      {found.kind === "text" && <p className="notice">{w.day.plainText}</p>}
      {gm && <p className="muted small">{w.day.gmPosts(gm.name, gm.posts)}</p>}
      {unknown.length > 0 && (
        <div className="nb-unknown">
          <h3>{w.day.unknown}</h3>
          <p className="muted small">{w.day.unknownLead}</p>
          <ul>
            {unknown.map((a) => (
              <li key={a.name}>
                <Alias name={a.name} view={props.view} setView={props.setView} />
              </li>
            ))}
          </ul>
          {found.authorCount > found.authors.length && (
            <p className="muted small">{w.day.moreAuthors(found.authorCount - found.authors.length)}</p>
          )}
        </div>
      )}
      <G5Flags flags={found.flags} total={found.flagCount} level={3} />
      {found.ignored.length > 0 && (
        <details>
          <summary>
            {w.day.ignored}
            {found.ignoredCount > found.ignored.length &&
              ` (${w.day.lastShown(found.ignored.length, found.ignoredCount)})`}
          </summary>
          <ul>
            {found.ignored.map((x, i) => (
              <li key={i}>{w.day.ignoredLine(x.label ?? String(x.post + 1), x.text, x.reason)}</li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}

/** An author not at the table, added to a seat as another spelling of its nick. */
function Alias(props: { name: string; view: NotebookView; setView: (v: NotebookView) => void }) {
  const w = useNotebookT();
  const r = useSend(props.view.id, props.setView);
  const [seat, setSeat] = useState("");
  const add = () => {
    const s = props.view.seats.find((x) => x.seat === Number(seat));
    if (seat === "" || !s) return r.fail(w.day.aliasFor(props.name));
    void r.send("aliases", { seat: s.seat, aliases: [...s.aliases, props.name] });
  };
  return (
    <span className="row nb-alias">
      <strong>{props.name}</strong>
      <select aria-label={w.day.aliasFor(props.name)} value={seat} onChange={(e) => setSeat(e.target.value)}>
        <option value="">—</option>
        {props.view.seats.map((s) => (
          <option key={s.seat} value={s.seat}>
            {s.name}
          </option>
        ))}
      </select>
      <button type="button" disabled={r.busy} onClick={add}>
        {w.day.addAlias(props.name)}
      </button>
      {r.outcome}
    </span>
  );
}

/** A vote the reader missed or misread, entered by hand: a correction with its reason (F2). */
function HandVote(props: { view: NotebookView; setView: (v: NotebookView) => void }) {
  const w = useNotebookT();
  const r = useSend(props.view.id, props.setView);
  const [voter, setVoter] = useState("");
  const [color, setColor] = useState<"red" | "blue">("red");
  const [target, setTarget] = useState("");
  const [early, setEarly] = useState(false);
  const [reason, setReason] = useState("");
  const living = props.view.seats.filter((s) => s.alive);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (voter === "") return r.fail(w.day.voter);
    if (target === "") return r.fail(w.day.target);
    if (!reason.trim()) return r.fail(w.page.reasonNeeded);
    void r
      .send("votes", {
        seat: Number(voter),
        vote: { color, target: Number(target), early },
        reason: reason.trim(),
      })
      .then((ok) => {
        if (ok) setReason("");
      });
  };
  return (
    <details className="sub nb-hand-vote">
      <summary>{w.day.handVote}</summary>
      <form onSubmit={submit}>
        <p className="muted small">{w.day.handVoteLead}</p>
        <SeatSelect label={w.day.voter} value={voter} onChange={setVoter} seats={living} />
        <label className="field">
          <span>{w.day.color}</span>
          <select value={color} onChange={(e) => setColor(e.target.value === "blue" ? "blue" : "red")}>
            <option value="red">{w.day.red}</option>
            <option value="blue">{w.day.blue}</option>
          </select>
        </label>
        <SeatSelect label={w.day.target} value={target} onChange={setTarget} seats={living} />
        <label className="play-choice">
          <input type="checkbox" checked={early} onChange={(e) => setEarly(e.target.checked)} />
          <span>{w.day.early}</span>
        </label>
        <ReasonField value={reason} onChange={setReason} />
        <button type="submit" disabled={r.busy}>
          {w.day.addVote}
        </button>
        {r.outcome}
      </form>
    </details>
  );
}

/** V4, V5, P1, P2: the tally as closing now would give it, highest score first (the GM's console's words). */
function Tally({ view }: { view: NotebookView }) {
  const t = useT();
  const w = useNotebookT();
  const tally = view.day!.tally;
  const name = (seat: number) => view.seats[seat]?.name ?? `#${seat + 1}`;
  return (
    <div className="nb-tally">
      <h3>{w.day.tally}</h3>
      <p className="nb-verdict">
        <strong>{tallyVerdict(tally, name, t)}</strong>
      </p>
      <TallyTable tally={tally} name={name} />
    </div>
  );
}
