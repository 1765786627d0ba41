import type { GameView, PostView } from "@forum-mafia/protocol";
import { useId, useState, type FormEvent } from "react";
import { api } from "../../api.ts";
import { useT } from "../../i18n/index.tsx";
import { Fold } from "./fold.tsx";
import { ConfirmButton, useRun } from "./shared.tsx";

/** Moderation: a modkill (P3, P4) and a replacement, each with its reason; and the hidden posts (F2). */

function SeatSelect(props: { label: string; view: GameView; value: string; onChange: (v: string) => void }) {
  const t = useT();
  return (
    <label className="field">
      <span>{props.label}</span>
      <select required value={props.value} onChange={(e) => props.onChange(e.target.value)}>
        <option value="">{t.gm.moderation.choose}</option>
        {props.view.seats
          .filter((s) => s.alive)
          .map((s) => (
            <option key={s.seat} value={String(s.seat)}>
              {s.seat + 1}. {s.name}
            </option>
          ))}
      </select>
    </label>
  );
}

export function Moderation(props: { id: string; view: GameView; done: () => void }) {
  const t = useT();
  const kill = useRun(props.done);
  const repl = useRun(props.done);
  const [killSeat, setKillSeat] = useState("");
  const [killReason, setKillReason] = useState("");
  const [replSeat, setReplSeat] = useState("");
  const [nick, setNick] = useState("");
  const [replReason, setReplReason] = useState("");
  const killHint = useId();
  const doKill = () => {
    if (killSeat === "" || killReason.trim() === "") return kill.fail(t.gm.moderation.missing);
    void kill
      .run(
        () => api.gm.modkill(props.id, { seat: Number(killSeat), reason: killReason }),
        t.gm.moderation.modkilled,
      )
      .then((ok) => {
        if (ok) {
          setKillSeat("");
          setKillReason("");
        }
      });
  };
  const doReplace = (e: FormEvent) => {
    e.preventDefault();
    void repl
      .run(
        () => api.gm.replace(props.id, { seat: Number(replSeat), nick, reason: replReason }),
        t.gm.moderation.replaced,
      )
      .then((ok) => {
        if (ok) {
          setReplSeat("");
          setNick("");
          setReplReason("");
        }
      });
  };
  // Issue 32: rarely needed, so closed until the GM opens it.
  return (
    <Fold folded heading={t.gm.moderation.heading}>
      <form
        className="sub"
        onSubmit={(e) => {
          e.preventDefault();
        }}
      >
        <h4>{t.gm.moderation.modkill}</h4>
        <p id={killHint} className="muted">
          {t.gm.moderation.modkillHint}
        </p>
        <SeatSelect
          label={t.gm.moderation.modkillSeat}
          view={props.view}
          value={killSeat}
          onChange={setKillSeat}
        />
        <label className="field">
          <span>{t.gm.moderation.reason}</span>
          <input
            required
            maxLength={500}
            value={killReason}
            onChange={(e) => setKillReason(e.target.value)}
          />
        </label>
        <ConfirmButton
          label={t.gm.moderation.modkillSubmit}
          confirmLabel={t.gm.moderation.modkillConfirm}
          disabled={kill.busy}
          onConfirm={doKill}
        />
        {kill.outcome}
      </form>
      <form className="sub" onSubmit={doReplace}>
        <h4>{t.gm.moderation.replace}</h4>
        <SeatSelect
          label={t.gm.moderation.replaceSeat}
          view={props.view}
          value={replSeat}
          onChange={setReplSeat}
        />
        <label className="field">
          <span>{t.gm.moderation.replaceNick}</span>
          <input required maxLength={64} value={nick} onChange={(e) => setNick(e.target.value)} />
        </label>
        <label className="field">
          <span>{t.gm.moderation.reason}</span>
          <input
            required
            maxLength={500}
            value={replReason}
            onChange={(e) => setReplReason(e.target.value)}
          />
        </label>
        <button type="submit" disabled={repl.busy}>
          {t.gm.moderation.replaceSubmit}
        </button>
        {repl.outcome}
      </form>
    </Fold>
  );
}

// ——— hidden posts ———

/** F2: the posts the GM has hidden, each with its reason, and a way back with a reason of its own. */
export function HiddenPosts(props: { id: string; posts: readonly PostView[]; done: () => void }) {
  const t = useT();
  const hidden = props.posts.filter((p) => p.hidden !== null);
  if (hidden.length === 0) return null;
  // Issue 32: closed until the GM opens it, with the count in its summary.
  return (
    <Fold folded heading={t.gm.hidden.summary(hidden.length)}>
      <p className="muted">{t.gm.hidden.intro}</p>
      <ul className="plain">
        {hidden.map((p) => (
          <HiddenPost key={p.id} id={props.id} post={p} done={props.done} />
        ))}
      </ul>
    </Fold>
  );
}

function HiddenPost(props: { id: string; post: PostView; done: () => void }) {
  const t = useT();
  const r = useRun(props.done);
  const [reason, setReason] = useState("");
  const post = props.post;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void r.run(() => api.gm.restore(props.id, post.id, reason.trim()), t.gm.hidden.restored);
  };
  return (
    <li>
      <p>{t.gm.hidden.post(post.author, post.hidden?.reason ?? "")}</p>
      <form className="row" onSubmit={submit} aria-label={t.gm.hidden.restoreLabel(post.author)}>
        <label className="field inline">
          <span>{t.gm.hidden.reason}</span>
          <input required maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} />
        </label>
        <button type="submit" disabled={r.busy || !reason.trim()}>
          {t.gm.hidden.restore}
        </button>
      </form>
      {r.outcome}
    </li>
  );
}
