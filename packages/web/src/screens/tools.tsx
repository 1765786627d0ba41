import type { Lang } from "@forum-mafia/protocol";
import { useState, type FormEvent } from "react";
import { api } from "../api.ts";
import { errorText, useLang, useT } from "../i18n/index.tsx";
import "./gm.css";
import { CopyBox } from "../copy.tsx";
import { parseJson, Submit, TextFile } from "./tools/common.tsx";
import "./tools/tools.css";
import { VoteCounter } from "./tools/vote-counter.tsx";

/**
 * The GM tools for games on other forums (issue 6): the vote counter over a thread pasted from the forum
 * page or saved (tools/vote-counter.tsx, issue 18), and the results post from a replay file. Both run on
 * the server (the same code as `npm run votecount` and `npm run results`) and need no login.
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
        <TextFile
          label={w.file}
          accept=".json,application/json"
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
        <Submit label={w.submit} busy={busy} error={error} />
      </form>
      {post !== null && (
        <div className="tool-result">
          <CopyBox label={w.result} copyLabel={w.copyLabel} text={post} words={t.gm.tools} primary />
        </div>
      )}
    </div>
  );
}
