import type { Lang, VoteCountResult } from "@forum-mafia/protocol";
import { useId, useRef, useState, type ChangeEvent, type FormEvent } from "react";
import { api } from "../api.ts";
import { errorText, useLang, useT } from "../i18n/index.tsx";
import "./gm.css";

/**
 * The GM tools for games on other forums (issue 6): the vote counter over a saved thread, and the
 * results post from a replay file. Both run on the server (the same code as `npm run votecount` and
 * `npm run results`) and need no login.
 */
export default function Tools() {
  const t = useT();
  return (
    <section className="gm tools" aria-labelledby="tools-heading">
      <h1 id="tools-heading">{t.gm.tools.heading}</h1>
      <p className="muted">{t.gm.tools.intro}</p>
      <VoteCounter />
      <ResultsWriter />
    </section>
  );
}

/**
 * A JSON file to upload (a saved thread or a replay), read in the browser into the text box beside it;
 * `file` names the file read, until the text is edited by hand.
 */
function JsonFile(props: {
  label: string;
  file: string | null;
  onRead: (text: string, name: string) => void;
}) {
  const t = useT();
  const read = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    if (file) void file.text().then((text) => props.onRead(text.replace(/^\uFEFF/, ""), file.name));
  };
  return (
    <>
      <label className="field">
        <span>{props.label}</span>
        <input type="file" accept=".json,application/json" onChange={read} />
      </label>
      {props.file && (
        <p className="muted" role="status">
          {t.gm.tools.fileRead(props.file)}
        </p>
      )}
    </>
  );
}

/** Parse JSON typed in or uploaded; null (with the error shown) when it is not JSON. */
function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/** A read-only post with a copy button (the clipboard, or a selection to copy by hand). */
function CopyBox(props: { label: string; copyLabel: string; text: string }) {
  const t = useT();
  const id = useId();
  const box = useRef<HTMLTextAreaElement>(null);
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  const copy = () => {
    navigator.clipboard.writeText(props.text).then(
      () => setState("copied"),
      () => {
        box.current?.select();
        setState("failed");
      },
    );
  };
  const lines = props.text.split("\n").length;
  return (
    <div className="copy-box">
      <label htmlFor={id} className="field-label">
        {props.label}
      </label>
      <textarea id={id} ref={box} readOnly rows={Math.min(20, lines + 1)} value={props.text} />
      <div className="row">
        <button type="button" className="primary" aria-label={props.copyLabel} onClick={copy}>
          {t.gm.tools.copy}
        </button>
        {state === "copied" && (
          <span className="ok" role="status">
            {t.gm.tools.copied}
          </span>
        )}
      </div>
      {state === "failed" && (
        <p className="error" role="alert">
          {t.gm.tools.copyFailed}
        </p>
      )}
    </div>
  );
}

// ——— the vote counter ———

const lines = (text: string): string[] =>
  text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== "");

function VoteCounter() {
  const t = useT();
  const { lang } = useLang();
  const v = t.gm.tools.vc;
  const [players, setPlayers] = useState("");
  const [gm, setGm] = useState("");
  const [day, setDay] = useState("");
  const [silenced, setSilenced] = useState("");
  const [thread, setThread] = useState("");
  const [file, setFile] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<VoteCountResult | null>(null);
  const hintPlayers = useId();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    const parsed = parseJson(thread);
    if (!parsed.ok) return setError(t.gm.tools.notJson(v.thread));
    setBusy(true);
    api.tools
      .voteCount({
        players,
        ...(gm.trim() ? { gm: gm.trim() } : {}),
        ...(day ? { day: Number(day) } : {}),
        silenced: lines(silenced),
        thread: parsed.value,
      })
      .then(
        (r) => setResult(r),
        (err: unknown) => {
          setResult(null);
          setError(errorText(err, lang));
        },
      )
      .finally(() => setBusy(false));
  };

  return (
    <div className="card">
      <h2>{v.heading}</h2>
      <form onSubmit={submit}>
        <div className="field">
          <label>
            <span className="field-label">{v.players}</span>
            <textarea
              required
              rows={6}
              aria-describedby={hintPlayers}
              value={players}
              onChange={(e) => setPlayers(e.target.value)}
            />
          </label>
          <small id={hintPlayers} className="muted">
            {v.playersHint}
          </small>
        </div>
        <div className="row two">
          <label className="field">
            <span>{v.gm}</span>
            <input maxLength={64} value={gm} onChange={(e) => setGm(e.target.value)} />
          </label>
          <label className="field">
            <span>{v.day}</span>
            <input
              type="number"
              inputMode="numeric"
              min={1}
              max={999}
              step={1}
              value={day}
              onChange={(e) => setDay(e.target.value)}
            />
          </label>
        </div>
        <label className="field">
          <span>{v.silenced}</span>
          <textarea rows={2} value={silenced} onChange={(e) => setSilenced(e.target.value)} />
        </label>
        <ThreadInput
          thread={thread}
          file={file}
          onChange={(text, name) => {
            setThread(text);
            setFile(name);
          }}
        />
        <button type="submit" className="primary" disabled={busy}>
          {v.submit}
        </button>
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
      </form>
      {result && <VoteCountReport result={result} />}
    </div>
  );
}

/** The saved thread: typed or pasted as JSON, or read from a file. */
function ThreadInput(props: {
  thread: string;
  file: string | null;
  onChange: (text: string, file: string | null) => void;
}) {
  const v = useT().gm.tools.vc;
  const hint = useId();
  return (
    <>
      <div className="field">
        <label>
          <span className="field-label">{v.thread}</span>
          <textarea
            required
            rows={6}
            spellCheck={false}
            aria-describedby={hint}
            value={props.thread}
            onChange={(e) => props.onChange(e.target.value, null)}
          />
        </label>
        <small id={hint} className="muted">
          {v.threadHint}
        </small>
      </div>
      <JsonFile label={v.file} file={props.file} onRead={props.onChange} />
    </>
  );
}

/** The count as a post to copy, every vote read with its post, who did not vote, and what was ignored. */
function VoteCountReport(props: { result: VoteCountResult }) {
  const v = useT().gm.tools.vc;
  const result = props.result;
  return (
    <div className="tool-result">
      <CopyBox label={v.result} copyLabel={v.copyLabel} text={result.count} />
      <h3>{v.votes}</h3>
      {result.votes.length === 0 ? (
        <p className="muted">{v.noVotes}</p>
      ) : (
        <ul>
          {result.votes.map((x) => (
            <li key={x.by}>
              <span className={x.red !== undefined ? "vote-red" : "vote-blue"}>
                {v.vote(x.by, x.red !== undefined ? v.red : v.blue, x.red ?? x.blue ?? "", x.early, x.post)}
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
            <li key={i}>{v.ignoredLine(x.post, x.text, x.reason)}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

// ——— the results writer ———

function ResultsWriter() {
  const t = useT();
  const { lang } = useLang();
  const w = t.gm.tools.rw;
  const [replay, setReplay] = useState("");
  const [file, setFile] = useState<string | null>(null);
  const [postLang, setPostLang] = useState<Lang>(lang);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [post, setPost] = useState<string | null>(null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    const parsed = parseJson(replay);
    if (!parsed.ok) return setError(t.gm.tools.notJson(w.replay));
    setBusy(true);
    api.tools
      .results(parsed.value, postLang)
      .then(
        (r) => setPost(r.post),
        (err: unknown) => {
          setPost(null);
          setError(errorText(err, lang));
        },
      )
      .finally(() => setBusy(false));
  };

  return (
    <div className="card">
      <h2>{w.heading}</h2>
      <p className="muted">{w.intro}</p>
      <form onSubmit={submit}>
        <JsonFile
          label={w.file}
          file={file}
          onRead={(text, name) => {
            setReplay(text);
            setFile(name);
          }}
        />
        <label className="field">
          <span>{w.replay}</span>
          <textarea
            required
            rows={6}
            spellCheck={false}
            value={replay}
            onChange={(e) => {
              setReplay(e.target.value);
              setFile(null);
            }}
          />
        </label>
        <label className="field">
          <span>{w.lang}</span>
          <select value={postLang} onChange={(e) => setPostLang(e.target.value === "en" ? "en" : "ru")}>
            <option value="ru">{t.lang.ru}</option>
            <option value="en">{t.lang.en}</option>
          </select>
        </label>
        <button type="submit" className="primary" disabled={busy}>
          {w.submit}
        </button>
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
      </form>
      {post !== null && (
        <div className="tool-result">
          <CopyBox label={w.result} copyLabel={w.copyLabel} text={post} />
        </div>
      )}
    </div>
  );
}
