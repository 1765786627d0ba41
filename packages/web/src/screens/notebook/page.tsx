import type { NotebookPosts, NotebookView, RoleId } from "@forum-mafia/protocol";
import { useCallback, useEffect, useState } from "react";
import { ApiFailure, api } from "../../api.ts";
import { errorText, useLang, useT } from "../../i18n/index.tsx";
import { useNotebookT } from "../../i18n/notebook.ts";
import { Link, navigate } from "../../router.tsx";
import { useSession } from "../../session.tsx";
import { useMySetups } from "../setup/my-setups.ts";
import { DayPanel } from "./day.tsx";
import { NightPanel } from "./night.tsx";
import { CopyBox, Corrections, ReasonField, SeatSelect, useSend, usePhaseName } from "./shared.tsx";
import "../gm.css";
import "./notebook.css";
import { ScrollRegion } from "../../scroll-region.tsx";

/**
 * Issue 18: a notebook's page, by phase: the night's entry forms and draft, the day's pasted thread and
 * tally, the end's winner, replay file and publishing; always the seats with roles, the seed's hash, the
 * posts of every closed phase (copyable again) and the corrections log (F2).
 */

export type RoleNames = Readonly<Record<RoleId, string>>;

export default function NotebookPage(props: { id: string }) {
  const w = useNotebookT();
  const { lang } = useLang();
  const { user } = useSession();
  const [view, setView] = useState<NotebookView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const names = useMySetups(lang).mine?.roleNames ?? null;
  useEffect(() => {
    if (!user) {
      navigate(`/login?next=/notebooks/${encodeURIComponent(props.id)}`, true);
      return;
    }
    let live = true;
    api.notebooks.get(props.id, lang).then(
      (v) => live && setView(v),
      (e: unknown) =>
        live && setError(e instanceof ApiFailure && e.status === 404 ? w.page.notFound : errorText(e, lang)),
    );
    return () => {
      live = false;
    };
  }, [props.id, lang, user, w]);
  const set = useCallback((v: NotebookView) => setView(v), []);
  if (error)
    return (
      <section className="notebook">
        <p className="error" role="alert">
          {error}
        </p>
        <Link href="/notebooks">{w.page.back}</Link>
      </section>
    );
  if (!view || !names) return <p className="muted">{w.page.loading}</p>;
  return <Loaded view={view} setView={set} names={names} />;
}

function Loaded(props: { view: NotebookView; setView: (v: NotebookView) => void; names: RoleNames }) {
  const w = useNotebookT();
  const phaseOf = usePhaseName();
  const { view, setView, names } = props;
  const last = view.history.at(-1);
  return (
    <section className="notebook" aria-labelledby="nb-h">
      <p className="nb-back">
        <Link href="/notebooks">{w.page.back}</Link>
      </p>
      <h1 id="nb-h">{view.title}</h1>
      <p className="nb-phase" role="status">
        <strong>{view.winner ? w.end.winner[view.winner] : w.page.now(phaseOf(view.phase))}</strong>
      </p>
      <Seed view={view} />
      {view.winner ? (
        <EndPanel view={view} setView={setView} />
      ) : view.night ? (
        <NightPanel view={view} setView={setView} names={names} />
      ) : view.day ? (
        <DayPanel view={view} setView={setView} />
      ) : null}
      {last && !view.winner && <Posts posts={last} heading={w.page.lastPosts(phaseOf(last.phase))} open />}
      {view.winner && last && <Posts posts={last} heading={w.page.lastPosts(phaseOf(last.phase))} open />}
      {!view.winner && <Moderation view={view} setView={setView} />}
      <Seats view={view} names={names} />
      <History view={view} />
      <Corrections corrections={view.corrections} />
      <Delete id={view.id} />
    </section>
  );
}

/** F1: the seed's hash to publish before night 1, and the seed itself (the GM's own secret until published). */
function Seed({ view }: { view: NotebookView }) {
  const w = useNotebookT();
  if (view.seedHash === null) return <p className="muted">{w.page.handDeal}</p>;
  return (
    <div className="card nb-seed">
      <CopyBox label={w.page.seedHash} copyLabel={w.page.copyHash} text={view.seedHash} big />
      <p>{w.page.seedHashLead}</p>
      {view.seed !== null && (view.winner !== null || view.published) && (
        <p>
          {w.page.seed}: <code className="nb-code">{view.seed}</code>
        </p>
      )}
    </div>
  );
}

/** A closed phase's posts: the public post, the count, each private message with whom to send it to. */
function Posts(props: { posts: NotebookPosts; heading: string; open?: boolean }) {
  const w = useNotebookT();
  const phaseOf = usePhaseName();
  const { posts } = props;
  const phase = phaseOf(posts.phase);
  const body = (
    <>
      <CopyBox label={w.page.publicPost} copyLabel={w.page.copyPublic(phase)} text={posts.public} />
      {posts.count !== null && (
        <CopyBox label={w.page.countPost} copyLabel={w.page.copyCount(phase)} text={posts.count} />
      )}
      {posts.private.map((p, i) => (
        <CopyBox
          key={i}
          label={w.page.privatePost(p.to.join(", "))}
          copyLabel={w.page.copyPrivate(`${p.to.join(", ")} (${phase})`)}
          text={p.text}
        />
      ))}
      {posts.explanation.length > 0 && (
        <details>
          <summary>{w.page.explanation}</summary>
          <ul>
            {posts.explanation.map((l, i) => (
              <li key={i}>{l}</li>
            ))}
          </ul>
        </details>
      )}
    </>
  );
  return props.open ? (
    <div className="card nb-posts">
      <h2>{props.heading}</h2>
      {body}
    </div>
  ) : (
    <details className="card nb-posts">
      <summary>{props.heading}</summary>
      {body}
    </details>
  );
}

function History({ view }: { view: NotebookView }) {
  const w = useNotebookT();
  const phaseOf = usePhaseName();
  return (
    <section className="nb-history" aria-labelledby="nb-history-h">
      <h2 id="nb-history-h">{w.page.history}</h2>
      {view.history.length === 0 ? (
        <p className="muted">{w.page.noHistory}</p>
      ) : (
        view.history.map((p, i) => <Posts key={i} posts={p} heading={phaseOf(p.phase)} />)
      )}
    </section>
  );
}

/** The seats: the notebook is the GM's own, so roles are shown; alive or out; strikes (P1, P2). */
function Seats({ view, names }: { view: NotebookView; names: RoleNames }) {
  const w = useNotebookT();
  return (
    <section className="nb-seats" aria-labelledby="nb-seats-h">
      <h2 id="nb-seats-h">{w.page.seats}</h2>
      <ScrollRegion label={w.page.seatsCaption}>
        <table className="gm-players">
          <caption className="sr-only">{w.page.seatsCaption}</caption>
          <thead>
            <tr>
              <th scope="col">{w.page.seat}</th>
              <th scope="col">{w.page.role}</th>
              <th scope="col">{w.page.state}</th>
              <th scope="col">{w.page.strikes}</th>
            </tr>
          </thead>
          <tbody>
            {view.seats.map((s) => (
              <tr key={s.seat} className={s.alive ? undefined : "nb-dead"}>
                <th scope="row">
                  {s.name}
                  {s.aliases.length > 0 && (
                    <small className="muted nb-aliases"> ({w.page.aliases(s.aliases.join(", "))})</small>
                  )}
                </th>
                <td>{names[s.role]}</td>
                <td>{s.alive ? w.page.alive : w.page.dead}</td>
                <td>{w.page.strikesOf(s.voteStrikes, s.nightStrikes)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
    </section>
  );
}

/** P3, P4, G5: a modkill or a replacement, each with its reason (F2). */
function Moderation(props: { view: NotebookView; setView: (v: NotebookView) => void }) {
  const w = useNotebookT();
  const r = useSend(props.view.id, props.setView);
  const [seat, setSeat] = useState("");
  const [reason, setReason] = useState("");
  const [nick, setNick] = useState("");
  const living = props.view.seats.filter((s) => s.alive);
  const go = async (kind: "modkill" | "replace") => {
    if (seat === "") return r.fail(w.moderation.who);
    if (!reason.trim()) return r.fail(w.page.reasonNeeded);
    if (kind === "replace" && !nick.trim()) return r.fail(w.moderation.needNick);
    const body =
      kind === "modkill"
        ? { seat: Number(seat), reason: reason.trim() }
        : { seat: Number(seat), name: nick.trim(), reason: reason.trim() };
    if (await r.send(kind, body)) {
      setSeat("");
      setReason("");
      setNick("");
    }
  };
  return (
    <details className="card nb-moderation">
      <summary>{w.moderation.heading}</summary>
      <SeatSelect label={w.moderation.who} value={seat} onChange={setSeat} seats={living} />
      <ReasonField value={reason} onChange={setReason} />
      <div className="row">
        <button type="button" className="red" disabled={r.busy} onClick={() => void go("modkill")}>
          {w.moderation.modkill}
        </button>
      </div>
      <label className="field">
        <span>{w.moderation.newNick}</span>
        <input maxLength={64} value={nick} onChange={(e) => setNick(e.target.value)} />
      </label>
      <div className="row">
        <button type="button" disabled={r.busy} onClick={() => void go("replace")}>
          {w.moderation.replace}
        </button>
      </div>
      {r.outcome}
    </details>
  );
}

/** The end (W1): the winner, the replay file, publishing and the public link. */
function EndPanel(props: { view: NotebookView; setView: (v: NotebookView) => void }) {
  const w = useNotebookT();
  const r = useSend(props.view.id, props.setView);
  const { view } = props;
  const file = `${view.title.replace(/[\\/:*?"<>|]+/g, "_").trim() || "replay"}.json`;
  const published = `/notebooks/${encodeURIComponent(view.id)}/log`;
  return (
    <div className="card nb-end">
      <h2>{w.end.heading}</h2>
      <p className="nb-winner">
        <strong>{view.winner ? w.end.winner[view.winner] : ""}</strong>
      </p>
      <p>
        <a className="nb-button" href={api.notebooks.replayUrl(view.id)} download={file}>
          {w.end.download}
        </a>
      </p>
      <p className="muted small">{w.end.downloadHint}</p>
      {view.published ? (
        <p>
          {w.end.published} <Link href={published}>{w.end.publicLink}</Link>
        </p>
      ) : (
        <>
          <button
            type="button"
            className="primary"
            disabled={r.busy}
            onClick={() => void r.send("publish", {})}
          >
            {w.end.publish}
          </button>
          <p className="muted small">{w.end.publishHint}</p>
        </>
      )}
      {r.outcome}
    </div>
  );
}

function Delete(props: { id: string }) {
  const w = useNotebookT();
  const { lang } = useLang();
  const t = useT();
  const [asked, setAsked] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const remove = () =>
    api.notebooks.remove(props.id).then(
      () => navigate("/notebooks"),
      (e: unknown) => setError(errorText(e, lang)),
    );
  return (
    <p className="nb-delete">
      {asked ? (
        <>
          <button type="button" className="red" onClick={() => void remove()}>
            {w.page.deleteConfirm}
          </button>{" "}
          <button type="button" className="link" onClick={() => setAsked(false)}>
            {t.cancel}
          </button>
        </>
      ) : (
        <button type="button" className="link" onClick={() => setAsked(true)}>
          {w.page.delete}
        </button>
      )}
      {error && (
        <span className="error" role="alert">
          {error}
        </span>
      )}
    </p>
  );
}
