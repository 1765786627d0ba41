import type { NotebookSummary } from "@forum-mafia/protocol";
import { useEffect, useState } from "react";
import { api } from "../../api.ts";
import { errorText, useLang, useT } from "../../i18n/index.tsx";
import { useNotebookT } from "../../i18n/notebook.ts";
import { Link } from "../../router.tsx";
import { useSession } from "../../session.tsx";
import { phaseName } from "../../time.ts";
import "./notebook.css";

/** Issue 18: the signed-in GM's notebooks, newest first, and «Новый блокнот». */
export default function NotebookList() {
  const t = useT();
  const w = useNotebookT();
  const { lang } = useLang();
  const { user } = useSession();
  const [list, setList] = useState<NotebookSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!user) return;
    let live = true;
    api.notebooks.list(lang).then(
      (l) => live && setList(l),
      (e: unknown) => live && setError(errorText(e, lang)),
    );
    return () => {
      live = false;
    };
  }, [user, lang]);
  if (!user)
    return (
      <section className="notebooks">
        <h1>{w.list.title}</h1>
        <p className="notice">
          {w.list.guest} <Link href="/login?next=/notebooks">{t.nav.login}</Link>
        </p>
      </section>
    );
  return (
    <section className="notebooks" aria-labelledby="nb-list-h">
      <h1 id="nb-list-h">{w.list.title}</h1>
      <p className="muted">{w.list.lead}</p>
      <p>
        <Link href="/notebooks/new" className="nb-button">
          {w.list.create}
        </Link>
      </p>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {list === null ? (
        !error && <p className="muted">{w.list.loading}</p>
      ) : list.length === 0 ? (
        <p className="muted">{w.list.empty}</p>
      ) : (
        <ul className="nb-list" aria-label={w.list.caption}>
          {list.map((n) => (
            <li key={n.id} className="card">
              <Link href={`/notebooks/${encodeURIComponent(n.id)}`}>
                <strong>{n.title}</strong>
              </Link>
              <span className="muted">
                {" · "}
                {w.list.players}: {n.players}
                {" · "}
                {n.winner ? w.end.winner[n.winner] : `${phaseName(n.phase, t)} (${w.list.going})`}
                {" · "}
                {n.published ? w.list.published : w.list.notPublished}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
