import type { FlagMeasure, GameDetail, GmFlag, PostView } from "@forum-mafia/protocol";
import { Fragment, useId, useState, type ReactNode } from "react";
import { api } from "../../api.ts";
import { phaseWords, useG5T } from "../../i18n/g5.ts";
import { useLang } from "../../i18n/index.tsx";
import { Link } from "../../router.tsx";
import { useSession } from "../../session.tsx";
import { formatMoment } from "../../time.ts";
import { Fold } from "./fold.tsx";
import { ConfirmButton, useRun } from "./shared.tsx";
import { awaitsGm } from "../game/my-strikes.tsx";
import "../game/g5.css";

/**
 * G5 (issue 31): every post and chat message the checker flagged (`GameDetail.gm.flags`), open ones (no
 * measure yet) first, newest first within each group: the author, where and when, the text with the flagged
 * words marked, a link to it, the author's earlier flags in this game, the measures already taken (the
 * policy's marked «автоматически»), and the GM's measures with a reason (F2). A measure the server would
 * refuse is not offered, and the line below the buttons says why; a refusal that still comes is shown in
 * words beside the controls. The live stream brings the new table after each flag and measure.
 */
export function FlagsPanel(props: {
  id: string;
  detail: GameDetail;
  posts: readonly PostView[];
  done: () => void;
}) {
  const w = useG5T().flags;
  const headingId = useId();
  const flags = props.detail.gm?.flags ?? [];
  const open = flags.filter(awaitsGm).length;
  const order = [...flags].sort((a, b) => Number(!awaitsGm(a)) - Number(!awaitsGm(b)) || b.at - a.at);
  // Issue 32: open while a flag waits for the GM; otherwise closed, with the count in its summary.
  return (
    <Fold
      folded={open === 0}
      className="g5-flags-panel"
      headingId={headingId}
      heading={
        <>
          {w.heading}
          <span className="muted"> ({flags.length > 0 ? w.open(open) : flags.length})</span>
        </>
      }
    >
      <p className="muted small">{w.lead}</p>
      {flags.length === 0 ? (
        <p className="muted">{w.none}</p>
      ) : (
        <>
          <p className="muted small">{w.order}</p>
          <ul className="plain">
            {order.map((f) => (
              <FlagItem
                key={f.id}
                id={props.id}
                flag={f}
                earlier={flags.slice(0, flags.indexOf(f)).filter((e) => e.seat === f.seat)}
                detail={props.detail}
                post={f.where === "thread" ? (props.posts.find((p) => p.id === f.id) ?? null) : null}
                done={props.done}
              />
            ))}
          </ul>
        </>
      )}
    </Fold>
  );
}

/** The text as written, with the flagged spans (UTF-16 offsets) in <mark>. */
export function markedText(text: string, spans: GmFlag["spans"]): ReactNode[] {
  const out: ReactNode[] = [];
  let at = 0;
  for (const s of [...spans].sort((a, b) => a.start - b.start)) {
    if (s.start < at || s.end > text.length || s.end <= s.start) continue; // overlapping or out of range
    if (s.start > at) out.push(text.slice(at, s.start));
    out.push(<mark key={s.start}>{text.slice(s.start, s.end)}</mark>);
    at = s.end;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

/** Words joined once each: the flagged words of a flag. */
const wordsOf = (f: GmFlag): string[] => [...new Set(f.spans.map((s) => s.word))];

function FlagItem(props: {
  id: string;
  flag: GmFlag;
  earlier: readonly GmFlag[];
  detail: GameDetail;
  post: PostView | null;
  done: () => void;
}) {
  const w = useG5T().flags;
  const headingId = useId();
  const f = props.flag;
  return (
    <li className={awaitsGm(f) ? "g5-flag g5-open" : "g5-flag"} aria-labelledby={headingId} data-flag={f.id}>
      <h4 id={headingId} className="g5-flag-head">
        {w.itemLabel(f.author, f.kind, f.where)}
      </h4>
      <FlagFacts id={props.id} flag={f} earlier={props.earlier} />
      <FlagControls id={props.id} flag={f} detail={props.detail} post={props.post} done={props.done} />
    </li>
  );
}

/** What the GM reads: when, the text marked, the link to it, the author's earlier flags, the measures taken. */
function FlagFacts(props: { id: string; flag: GmFlag; earlier: readonly GmFlag[] }) {
  const w = useG5T().flags;
  const { lang } = useLang();
  const { timeZone } = useSession();
  const f = props.flag;
  const when = (at: number) => formatMoment(at, timeZone, lang);
  const phaseOf = (x: GmFlag) => (x.phase ? phaseWords(x.phase, lang) : w.noPhase);
  const thread = f.where === "thread";
  const game = `/games/${encodeURIComponent(props.id)}`;
  const href = thread
    ? `${game}/thread#post-${encodeURIComponent(f.id)}`
    : `${game}/chats#message-${encodeURIComponent(f.id)}`;
  return (
    <>
      <p className="muted small">
        {phaseOf(f)} · <time dateTime={new Date(f.at).toISOString()}>{when(f.at)}</time>
      </p>
      <blockquote className="g5-flag-text" aria-label={w.textLabel}>
        {markedText(f.text, f.spans)}
      </blockquote>
      <p className="small">
        {w.words}
        {wordsOf(f).map((word, i) => (
          <Fragment key={word}>
            {i > 0 && ", "}
            <mark>{word}</mark>
          </Fragment>
        ))}
      </p>
      <p>
        <Link href={href}>{thread ? w.toPost : w.toChat(f.where)}</Link>
      </p>
      <p className="small">{w.earlier(f.earlier)}</p>
      {props.earlier.length > 0 && (
        <ul className="small">
          {props.earlier.map((e) => (
            <li key={e.id}>{w.earlierLine(phaseOf(e), e.kind, e.where, wordsOf(e).join(", "))}</li>
          ))}
        </ul>
      )}
      <h5>{w.measuresHeading}</h5>
      {f.measures.length === 0 ? (
        <p className="muted small">{w.noMeasures}</p>
      ) : (
        <ul className="small g5-measures">
          {f.measures.map((m, i) => (
            <li key={i}>
              <strong>{w.measure[m.kind]}</strong>
              {m.auto && ` (${w.auto})`}: {m.reason}{" "}
              <time className="muted" dateTime={new Date(m.at).toISOString()}>
                {when(m.at)}
              </time>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

/**
 * The GM's measures with a reason (prefilled, editable): only those the server would take are offered
 * (a measure once; «Без мер» only before any; hiding only an unhidden post in the thread; a strike only when
 * the game allows G5 strikes; a strike or a modkill only for a player still in the game), and a line says
 * why any other is not; a modkill asks first.
 */
function FlagControls(props: {
  id: string;
  flag: GmFlag;
  detail: GameDetail;
  post: PostView | null;
  done: () => void;
}) {
  const w = useG5T().flags;
  const f = props.flag;
  const d = props.detail;
  const [reason, setReason] = useState(() => w.defaultReason(f.kind, f.where));
  const r = useRun(props.done);
  const taken = (m: FlagMeasure) => f.measures.some((x) => x.kind === m);
  const alive = d.view?.seats[f.seat]?.alive ?? false;
  const thread = f.where === "thread";
  const hidden = props.post?.hidden != null || taken("hide");
  const strikesAllowed = d.settings.g5.strikes;
  const offer = {
    dismiss: awaitsGm(f),
    warn: !taken("warn"),
    hide: thread && !hidden,
    strike: strikesAllowed && alive && !taken("strike"),
    modkill: alive && !taken("modkill"),
  } satisfies Record<FlagMeasure, boolean>;
  const why = [
    !thread ? w.notOffered.chat : hidden ? w.notOffered.hidden : null,
    !strikesAllowed ? w.notOffered.noStrikes : null,
    !alive ? w.notOffered.dead : null,
  ].filter((x): x is string => x !== null);
  const take = (measure: FlagMeasure) => {
    const text = reason.trim();
    if (!text) return r.fail(w.reasonEmpty);
    void r.run(() => api.gm.measure(props.id, f.id, measure, text), w.done[measure]);
  };
  const plain = (["dismiss", "warn", "hide", "strike"] as const).filter((m) => offer[m]);
  return (
    <div className="sub" role="group" aria-label={`${w.actions}: ${f.author}`}>
      <label className="field">
        <span>{w.reason}</span>
        <input required maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} />
      </label>
      <div className="row">
        {plain.map((m) => (
          <button
            key={m}
            type="button"
            className={m === "strike" ? "red" : undefined}
            disabled={r.busy}
            onClick={() => take(m)}
          >
            {w[m]}
          </button>
        ))}
        {offer.modkill && (
          <ConfirmButton
            label={w.modkill}
            confirmLabel={w.modkillConfirm}
            disabled={r.busy}
            onConfirm={() => take("modkill")}
          />
        )}
      </div>
      {why.map((line) => (
        <p key={line} className="muted small">
          {line}
        </p>
      ))}
      {r.outcome}
    </div>
  );
}
