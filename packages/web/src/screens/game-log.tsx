import type {
  GameDetail,
  GameEvent,
  GameLog as Log,
  NightAction,
  Phase,
  RoleId,
} from "@forum-mafia/protocol";
import { ROLL_NAMES, type RollName } from "@forum-mafia/protocol/roles";
import { useEffect, useState } from "react";
import { api } from "../api.ts";
import { takeEarlyLog } from "../early.ts";
import { withoutClauseIds } from "../i18n/common.ts";
import { errorText, useLang, useT, type Dict } from "../i18n/index.tsx";
import { phaseName } from "../time.ts";
import { actionText } from "./gm/shared.tsx";
import { SeedCheck } from "./seed-check.tsx";
import "./gm.css";
import { ScrollRegion } from "../scroll-region.tsx";

/**
 * The finished game's log (R3): a timeline by phase of every move, roll, explanation, GM decision and
 * vote; the final roles and the winner; the seed checked against the commitment published at the start
 * (F1), hashed here in the browser; and the replay file to download.
 */
export default function GameLog(props: { id: string; detail: GameDetail }) {
  const t = useT();
  const { lang } = useLang();
  const [log, setLog] = useState<Log | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const id = props.id;
  useEffect(() => {
    let stopped = false;
    // Issue 32: a page opened at the log asked for it as the app started (early.ts).
    (takeEarlyLog(id, lang) ?? api.log(id, lang)).then(
      (l) => {
        if (stopped) return;
        setLog(l);
        setError(null);
      },
      (e: unknown) => {
        if (!stopped) setError(errorText(e, lang));
      },
    );
    return () => {
      stopped = true;
    };
  }, [id, lang, attempt]);

  if (error)
    return (
      <div>
        <p className="error" role="alert">
          {error}
        </p>
        <button type="button" onClick={() => setAttempt((a) => a + 1)}>
          {t.retry}
        </button>
      </div>
    );
  if (!log) return <p className="muted">{t.loading}</p>;
  const view = log.view;
  const roleNames = props.detail.roleNames;
  return (
    <section className="gm game-log" aria-labelledby="log-heading">
      <h2 id="log-heading">{t.gm.log.heading}</h2>
      <p className="muted">{t.gm.log.intro}</p>
      {view?.winner && <p className="winner">{t.gm.log.winner[view.winner]}</p>}
      {view && (
        <div className="card">
          <h3>{t.gm.log.roles}</h3>
          <ScrollRegion label={t.gm.log.rolesCaption}>
            <table>
              <caption className="sr-only">{t.gm.log.rolesCaption}</caption>
              <thead>
                <tr>
                  <th scope="col">{t.gm.log.seat}</th>
                  <th scope="col">{t.gm.log.name}</th>
                  <th scope="col">{t.gm.log.role}</th>
                  <th scope="col">{t.gm.log.fate}</th>
                </tr>
              </thead>
              <tbody>
                {view.seats.map((s) => (
                  <tr key={s.seat} className={s.alive ? undefined : "dead"}>
                    <td>{s.seat + 1}</td>
                    <th scope="row">{s.name}</th>
                    <td>{s.role ? roleNames[s.role] : "?"}</td>
                    <td>{s.alive ? t.gm.log.alive : t.gm.log.dead}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
        </div>
      )}
      <SeedCheck commitment={props.detail.commitment} seed={log.seed} />
      <div className="card">
        <h3>{t.gm.log.replay}</h3>
        <p className="muted">{t.gm.log.replayHint}</p>
        <a className="btn" href={api.replayUrl(id)} download={`forum-mafia-${id}.json`}>
          {t.gm.log.download}
        </a>
      </div>
      <Timeline log={log} detail={props.detail} />
      {log.hiddenPosts.length > 0 && (
        <div className="card">
          <h3>{t.gm.log.hidden}</h3>
          <ul>
            {log.hiddenPosts.map((p) => (
              <li key={p.id}>
                <strong>{t.gm.log.hiddenPost(p.author, p.reason)}</strong>
                <pre className="post-text">{p.text}</pre>
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}

// ——— a player's own game, after the end (R3) ———

/**
 * The «Роль» tab after the end: the role card is gone (the view is now the GM's, R3), so the player's
 * role comes from that view's table and their night actions from the published log.
 */
export function PlayerRecap(props: { id: string; detail: GameDetail }) {
  const t = useT();
  const { lang } = useLang();
  const w = t.game.recap;
  const [log, setLog] = useState<Log | null>(null);
  const [failed, setFailed] = useState(false);
  const id = props.id;
  useEffect(() => {
    let stopped = false;
    api.log(id, lang).then(
      (l) => {
        if (!stopped) setLog(l);
      },
      () => {
        if (!stopped) setFailed(true);
      },
    );
    return () => {
      stopped = true;
    };
  }, [id, lang]);
  const d = props.detail;
  const seat = d.me.seat;
  const me = seat === null ? undefined : d.view?.seats[seat];
  if (seat === null || !me) return <p className="muted">{w.unknown}</p>;
  const moves = log ? blocksOf(log.events, t).blocks.flatMap((b) => b.moves.map((m) => ({ b, m }))) : [];
  const mine = moves.filter(({ m }) => m.seat === seat);
  return (
    <div className="gm recap">
      <section className="card" aria-labelledby="recap-role">
        <p className="muted play-kicker">{w.heading}</p>
        <h2 id="recap-role">{me.role ? d.roleNames[me.role] : w.unknown}</h2>
        <p>{me.alive ? w.alive : w.dead}</p>
      </section>
      <section className="card" aria-labelledby="recap-actions">
        <h3 id="recap-actions">{w.actions}</h3>
        {failed ? (
          <p className="error" role="alert">
            {w.logFailed}
          </p>
        ) : !log ? (
          <p className="muted">{t.loading}</p>
        ) : mine.length === 0 ? (
          <p className="muted">{w.noActions}</p>
        ) : (
          <ul>
            {mine.map(({ b, m }, i) => (
              <li key={i} className={m.superseded ? "superseded" : undefined}>
                <strong>{phaseName(b.phase, t)}</strong>: {actionText(m.action, m.names, t)}
                {m.superseded && <span className="muted"> {w.superseded}</span>}
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

// ——— the timeline ———

interface Move {
  readonly seat: number;
  readonly slot: "own" | "mafia" | "pair";
  readonly action: NightAction;
  readonly names: readonly string[];
  superseded: boolean;
}

interface Block {
  readonly phase: Phase;
  readonly moves: Move[];
  readonly votes: { seat: number; name: string; color: "red" | "blue"; target: string; early: boolean }[];
  rolls: readonly { name: string; value: boolean; fixed: boolean }[];
  score: readonly { seat: number; score: number }[];
  readonly strikes: string[];
}

const keyOf = (p: Phase): string => `${p.kind}:${p.number}`;

/** The events folded into one block per phase, in the order the phases were played. */
function blocksOf(events: readonly GameEvent[], t: Dict): { blocks: Block[]; roles: RoleId[] } {
  const blocks = new Map<string, Block>();
  let names: readonly string[] = [];
  const roles: RoleId[] = [];
  let current: Phase = { kind: "night", number: 1 };
  const block = (p: Phase): Block => {
    const k = keyOf(p);
    let b = blocks.get(k);
    if (!b) {
      b = { phase: p, moves: [], votes: [], rolls: [], score: [], strikes: [] };
      blocks.set(k, b);
    }
    return b;
  };
  const name = (s: number) => names[s] ?? `#${s + 1}`;
  for (const e of events) {
    switch (e.type) {
      case "gameStarted":
        names = e.names;
        break;
      case "roleDealt":
        roles[e.seat] = e.role;
        break;
      case "actionSubmitted": {
        const b = block(e.phase);
        // A later submission replaces the earlier one in the same slot; the pair's slot is one for both.
        for (const m of b.moves)
          if (m.slot === e.slot && (e.slot === "pair" || m.seat === e.seat)) m.superseded = true;
        b.moves.push({ seat: e.seat, slot: e.slot, action: e.action, names, superseded: false });
        break;
      }
      case "voteCast":
        block(e.phase).votes.push({
          seat: e.seat,
          name: name(e.seat),
          color: e.color,
          target: name(e.target),
          early: e.early,
        });
        break;
      case "nightDetail":
        block(e.phase).rolls = e.rolls;
        break;
      case "dayDetail":
        block(e.phase).score = e.score;
        break;
      case "strike":
        block(e.phase).strikes.push(t.gm.log.strike(name(e.seat), e.cause));
        break;
      case "modkillOrdered":
        // The GM's decisions (with reasons) come from the log's moderation list.
        block(e.phase);
        break;
      case "replaced":
        block(current);
        names = names.map((n, s) => (s === e.seat ? e.newName : n));
        break;
      case "nightResults":
        block(e.phase);
        current = { kind: "day", number: e.phase.number };
        break;
      case "dayResults":
        block(e.phase);
        current = { kind: "night", number: e.phase.number + 1 };
        break;
      case "teamRevealed":
      case "checkResult":
      case "councilAnswer":
      case "gameEnded":
        break;
      default: {
        const never: never = e;
        throw new Error(`unknown event ${JSON.stringify(never)}`);
      }
    }
  }
  return { blocks: [...blocks.values()], roles };
}

const isRoll = (n: string): n is RollName => (ROLL_NAMES as readonly string[]).includes(n);

function Timeline(props: { log: Log; detail: GameDetail }) {
  const t = useT();
  const { log, detail } = props;
  const { blocks, roles } = blocksOf(log.events, t);
  const roleNames = detail.roleNames;
  const who = (name: string, seat: number): string =>
    roles[seat] ? `${name} (${roleNames[roles[seat]]})` : name;
  const linesFor = (list: readonly { phase: Phase; lines: readonly string[] }[], p: Phase) =>
    list.filter((x) => keyOf(x.phase) === keyOf(p)).flatMap((x) => x.lines);
  const decisionsFor = (p: Phase): string[] => [
    ...log.moderation
      .filter((m) => m.phase !== null && keyOf(m.phase) === keyOf(p))
      .map((m) => decisionText(m.kind, m.detail, m.reason, t)),
    // The engine's fixed rolls are not in the server's moderation list; the rest are.
    ...log.overrides
      .filter((o) => o.kind === "fixRolls" && keyOf(o.phase) === keyOf(p))
      .map((o) => decisionText(o.kind, o.detail, o.reason, t)),
  ];
  const early = log.moderation.filter((m) => m.phase === null);
  return (
    <div className="card">
      <h3>{t.gm.log.timeline}</h3>
      {early.length > 0 && (
        <section className="phase-block">
          <h4>{t.gm.log.start}</h4>
          <ul>
            {early.map((m, i) => (
              <li key={i}>{decisionText(m.kind, m.detail, m.reason, t)}</li>
            ))}
          </ul>
        </section>
      )}
      {blocks.map((b) => {
        const night = b.phase.kind === "night";
        const results = linesFor(detail.announcements, b.phase);
        const explanation = night ? linesFor(log.explanations, b.phase).map(withoutClauseIds) : [];
        const decisions = decisionsFor(b.phase);
        return (
          <section key={keyOf(b.phase)} className="phase-block" aria-label={phaseName(b.phase, t)}>
            <h4>{phaseName(b.phase, t)}</h4>
            {night && (
              <>
                <h5>{t.gm.log.actions}</h5>
                {b.moves.length === 0 ? (
                  <p className="muted">{t.gm.log.noActions}</p>
                ) : (
                  <ul>
                    {b.moves.map((m, i) => (
                      <li key={i} className={m.superseded ? "superseded" : undefined}>
                        <strong>{who(m.names[m.seat] ?? `#${m.seat + 1}`, m.seat)}</strong>:{" "}
                        {actionText(m.action, m.names, t)}
                        {m.superseded && <span className="muted"> {t.gm.log.superseded}</span>}
                      </li>
                    ))}
                  </ul>
                )}
                {b.rolls.length > 0 && (
                  <>
                    <h5>{t.gm.log.rolls}</h5>
                    <ul>
                      {b.rolls.map((r, i) => (
                        <li key={i}>
                          {isRoll(r.name) ? t.gm.review.roll[r.name] : r.name}:{" "}
                          <strong>{r.value ? t.gm.log.yes : t.gm.log.no}</strong>{" "}
                          <span className="muted">({r.fixed ? t.gm.log.fixed : t.gm.log.drawn})</span>
                        </li>
                      ))}
                    </ul>
                  </>
                )}
                {explanation.length > 0 && <LineList heading={t.gm.log.explanation} lines={explanation} />}
              </>
            )}
            {!night && (
              <>
                <h5>{t.gm.log.votes}</h5>
                {b.votes.length === 0 ? (
                  <p className="muted">{t.gm.log.noVotes}</p>
                ) : (
                  <ol>
                    {b.votes.map((v, i) => (
                      <li key={i}>
                        <strong>{who(v.name, v.seat)}</strong>:{" "}
                        <span className={v.color === "red" ? "vote-red" : "vote-blue"}>
                          {t.gm.log.vote(v.color === "red" ? t.gm.log.red : t.gm.log.blue, v.target, v.early)}
                        </span>
                      </li>
                    ))}
                  </ol>
                )}
                {b.score.length > 0 && (
                  <LineList
                    heading={t.gm.log.score}
                    lines={b.score.map(
                      (s) => `${log.view?.seats[s.seat]?.name ?? `#${s.seat + 1}`}: ${s.score}`,
                    )}
                  />
                )}
              </>
            )}
            {results.length > 0 && <LineList heading={t.gm.log.results} lines={results} />}
            {decisions.length > 0 && <LineList heading={t.gm.log.decisions} lines={decisions} />}
            {b.strikes.length > 0 && <LineList heading={t.gm.log.strikes} lines={b.strikes} />}
          </section>
        );
      })}
    </div>
  );
}

function decisionText(kind: string, detail: string, reason: string, t: Dict): string {
  const words = (t.gm.log.kinds as Readonly<Record<string, string>>)[kind] ?? kind;
  // The council's answer is stored as its id ("yes"); say it in words.
  const answer =
    kind === "council" && (detail === "yes" || detail === "no" || detail === "rejected")
      ? t.gm.review.answers[detail]
      : detail;
  return t.gm.log.decision(words, answer, reason);
}

function LineList(props: { heading: string; lines: readonly string[] }) {
  return (
    <>
      <h5>{props.heading}</h5>
      <ul>
        {props.lines.map((l, i) => (
          <li key={i}>{l}</li>
        ))}
      </ul>
    </>
  );
}
