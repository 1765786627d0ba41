import type { PublishedNotebook } from "@forum-mafia/protocol";
import { useEffect, useMemo, useState } from "react";
import { ApiFailure, api } from "../../api.ts";
import { errorText, useLang } from "../../i18n/index.tsx";
import { useNotebookT } from "../../i18n/notebook.ts";
import { SeedCheck } from "../seed-check.tsx";
import { Corrections } from "./shared.tsx";
import "../gm.css";
import "./notebook.css";

/**
 * Issue 18, F1, F2: a notebook its GM has published, for anyone (no sign-in): the winner, the seed checked
 * in the browser against the SHA-256 the GM published before the deal, the REPLAY.md file to download, and
 * the corrections log. Before it is published the server answers 404, and so does this page.
 */
export default function PublishedNotebookPage(props: { id: string }) {
  const w = useNotebookT();
  const { lang } = useLang();
  const [log, setLog] = useState<PublishedNotebook | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let stopped = false;
    api.notebooks.published(props.id).then(
      (r) => {
        if (!stopped) setLog(r);
      },
      (e: unknown) => {
        if (stopped) return;
        setError(e instanceof ApiFailure && e.status === 404 ? w.log.notFound : errorText(e, lang));
      },
    );
    return () => {
      stopped = true;
    };
  }, [props.id, lang, w]);
  if (error !== null)
    return (
      <section className="gm notebook">
        <p className="error" role="alert">
          {error}
        </p>
      </section>
    );
  if (log === null) return <p className="muted">…</p>;
  return (
    <section className="gm notebook" aria-labelledby="nb-log-h">
      <h1 id="nb-log-h">{log.title}</h1>
      {log.winner && (
        <p className="nb-winner">
          <strong>{w.end.winner[log.winner]}</strong>
        </p>
      )}
      <p className="muted">{w.log.lead}</p>
      <ReplayFile title={log.title} replay={log.replay} />
      <SeedCheck commitment={log.seedHash} seed={log.seed} />
      <Corrections corrections={log.corrections} />
    </section>
  );
}

/** The REPLAY.md file as a download, made in the browser from what the server published. */
function ReplayFile(props: { title: string; replay: unknown }) {
  const w = useNotebookT();
  const url = useMemo(
    () =>
      URL.createObjectURL(
        new Blob([JSON.stringify(props.replay, null, 2) + "\n"], { type: "application/json" }),
      ),
    [props.replay],
  );
  useEffect(() => () => URL.revokeObjectURL(url), [url]);
  const file = `${props.title.replace(/[\\/:*?"<>|]+/g, "_").trim() || "replay"}.json`;
  return (
    <div className="card">
      <p>
        <a className="nb-button" href={url} download={file}>
          {w.log.download}
        </a>
      </p>
      <p className="muted small">{w.log.downloadHint}</p>
    </div>
  );
}
