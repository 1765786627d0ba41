import type { GameDetail, RoleId } from "@forum-mafia/protocol";
import { ROLE_IDS, isRoleId } from "@forum-mafia/protocol/roles";
import { useId, useState, type FormEvent } from "react";
import { api } from "../../api.ts";
import { useT } from "../../i18n/index.tsx";
import { useRun } from "./shared.tsx";

/** S1, F1: the signups so far, and the start: a random deal, or roles dealt by hand seat by seat. */
export function SignupPanel(props: { id: string; detail: GameDetail; done: () => void }) {
  const t = useT();
  const d = props.detail;
  const seats = d.settings.seats;
  const players = d.signups.filter((s) => !s.reserve);
  const reserve = d.signups.length - players.length;
  const missing = Math.max(0, seats - players.length);
  const random = useRun(props.done);
  const hand = useRun(props.done);
  // S1, S3: a hand deal gives out exactly the game's published role list; it starts in the list's order.
  const [roles, setRoles] = useState<RoleId[]>(() => [...d.settings.roles]);
  const inList = ROLE_IDS.filter((r) => d.settings.roles.includes(r));
  const hintId = useId();
  const startHand = (e: FormEvent) => {
    e.preventDefault();
    void hand.run(() => api.start(props.id, { deal: { hand: roles } }));
  };
  return (
    <div className="card">
      <h3>{t.gm.signup.heading}</h3>
      <p>
        <strong>{t.gm.signup.count(players.length, seats)}</strong>
        {reserve > 0 && <span className="muted">, {t.gm.signup.reserve(reserve)}</span>}
      </p>
      {missing > 0 && <p className="muted">{t.gm.signup.notFull(missing)}</p>}
      <p id={hintId} className="muted">
        {t.gm.signup.startHint}
      </p>
      <button
        type="button"
        className="primary"
        aria-describedby={hintId}
        disabled={random.busy}
        onClick={() => void random.run(() => api.start(props.id, { deal: "random" }))}
      >
        {t.gm.signup.start}
      </button>
      {random.outcome}
      <details className="hand">
        <summary>{t.gm.signup.hand}</summary>
        <p className="muted">{t.gm.signup.handHint}</p>
        <form onSubmit={startHand}>
          <div className="hand-grid">
            {roles.map((role, i) => (
              <label key={i} className="field">
                <span>{t.gm.signup.seatRole(players[i]?.nick ?? t.gm.signup.seatEmpty(i + 1))}</span>
                <select
                  value={role}
                  onChange={(e) => {
                    const picked = e.target.value;
                    if (!isRoleId(picked)) return;
                    const next = roles.slice();
                    next[i] = picked;
                    setRoles(next);
                  }}
                >
                  {inList.map((r) => (
                    <option key={r} value={r}>
                      {d.roleNames[r]}
                    </option>
                  ))}
                </select>
              </label>
            ))}
          </div>
          <button type="submit" disabled={hand.busy}>
            {t.gm.signup.startHand}
          </button>
          {hand.outcome}
        </form>
      </details>
    </div>
  );
}
