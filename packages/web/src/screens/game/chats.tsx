import type { ChannelId, ChannelView, GameDetail } from "@forum-mafia/protocol";
import {
  useEffect,
  useId,
  useRef,
  useState,
  type FormEvent,
  type KeyboardEvent,
  type RefObject,
} from "react";
import { api } from "../../api.ts";
import { errorText, useLang, useT, type Dict } from "../../i18n/index.tsx";
import { useSession } from "../../session.tsx";
import { formatMoment } from "../../time.ts";
import { useCoarsePointer } from "./composer.tsx";
import { useArrival, usePageVisible, type GameData } from "../../use-game.ts";
import { UnreadBadge } from "./unread.tsx";
import { voteHtml } from "../../vote-words.ts";
import { G5Warning, useTextCheck } from "./g5-warning.tsx";
import "./play.css";
import "./g5.css";

const personalSeat = (id: ChannelId): number | null => (id.startsWith("gm:") ? Number(id.slice(3)) : null);

/** A message's anchor: `/games/:id/chats#message-<id>` opens its channel with the message in view (issue 31). */
export const messageAnchor = (id: string): string => `message-${id}`;

/** The message the address points at (`#message-<id>`), or null. */
function messageInHash(): string | null {
  const m = /^#message-(.+)$/.exec(window.location.hash);
  return m ? decodeURIComponent(m[1]!) : null;
}

function channelName(id: ChannelId, detail: GameDetail, t: Dict): string {
  const w = t.play.chats.names;
  const seat = personalSeat(id);
  if (seat === null) return w[id as "mafia" | "pair" | "spectators"];
  if (detail.me.kind !== "gm") return w.gm;
  return w.gmWith(detail.view?.seats[seat]?.name ?? `#${seat + 1}`);
}

/**
 * The private channels (S2, G8) and the viewer's own channel with the GM; the GM reads every one. The
 * faction chats are tabs; the GM's seventeen personal chats are picked from a list.
 */
export function Chats(props: { id: string; game: GameData }) {
  const t = useT();
  const d = props.game.detail;
  // Issue 31: a link to a message (the GM console's G5 list) opens the channel that holds it.
  const [target] = useState(messageInHash);
  const [picked, setPicked] = useState<ChannelId | null>(
    () => d?.channels.find((c) => c.messages.some((m) => m.id === target))?.id ?? null,
  );
  const tabRefs = useRef(new Map<ChannelId, HTMLButtonElement>());
  const uid = useId();
  if (!d) return <p className="muted">{t.loading}</p>;
  const channels = d.channels;
  if (channels.length === 0) return <p className="muted">{t.play.chats.none}</p>;

  const gm = d.me.kind === "gm";
  // For the GM the personal chats go into a select; for a player their one chat with the GM is a tab.
  const tabs = gm ? channels.filter((c) => personalSeat(c.id) === null) : channels;
  const personal = gm ? channels.filter((c) => personalSeat(c.id) !== null) : [];
  const selected = channels.find((c) => c.id === picked) ?? tabs[0] ?? channels[0]!;
  const name = (c: ChannelView) => channelName(c.id, d, t);
  // Issue 15: messages from others not yet read (one's own never count).
  const unreadIn = (c: ChannelView): number => props.game.unread?.channels[c.id] ?? 0;

  const onTabKey = (e: KeyboardEvent<HTMLButtonElement>, index: number) => {
    let next = -1;
    if (e.key === "ArrowRight" || e.key === "ArrowDown") next = (index + 1) % tabs.length;
    else if (e.key === "ArrowLeft" || e.key === "ArrowUp") next = (index - 1 + tabs.length) % tabs.length;
    else if (e.key === "Home") next = 0;
    else if (e.key === "End") next = tabs.length - 1;
    if (next < 0) return;
    e.preventDefault();
    const c = tabs[next]!;
    setPicked(c.id);
    tabRefs.current.get(c.id)?.focus();
  };
  const tabSelected = tabs.some((c) => c.id === selected.id);

  return (
    <div className="play play-chats">
      <h2 className="sr-only">{t.play.chats.heading}</h2>
      <div className="play-picker">
        {tabs.length > 0 && (
          <div role="tablist" aria-label={t.play.chats.picker} className="play-tabs">
            {tabs.map((c, i) => {
              const on = c.id === selected.id;
              return (
                <button
                  key={c.id}
                  ref={(el) => {
                    if (el) tabRefs.current.set(c.id, el);
                    else tabRefs.current.delete(c.id);
                  }}
                  type="button"
                  role="tab"
                  id={`${uid}-tab-${c.id}`}
                  aria-selected={on}
                  aria-controls={`${uid}-panel`}
                  tabIndex={on || (!tabSelected && i === 0) ? 0 : -1}
                  className={on ? "play-tab play-tab-on" : "play-tab"}
                  onClick={() => setPicked(c.id)}
                  onKeyDown={(e) => onTabKey(e, i)}
                  aria-describedby={unreadIn(c) > 0 ? `${uid}-unread-${c.id}` : undefined}
                >
                  {name(c)}
                  <UnreadBadge count={unreadIn(c)} id={`${uid}-unread-${c.id}`} />
                </button>
              );
            })}
          </div>
        )}
        {personal.length > 0 && (
          <label className="field play-personal">
            <span>{t.play.chats.personal}</span>
            <select
              value={personalSeat(selected.id) === null ? "" : selected.id}
              onChange={(e) => e.target.value !== "" && setPicked(e.target.value as ChannelId)}
            >
              <option value="">{t.play.chats.personalPick}</option>
              {personal.map((c) => (
                <option key={c.id} value={c.id}>
                  {name(c)}
                  {unreadIn(c) > 0 ? ` (${unreadIn(c)})` : ""}
                </option>
              ))}
            </select>
          </label>
        )}
      </div>
      <ChannelPanel
        key={selected.id}
        gameId={props.id}
        game={props.game}
        channel={selected}
        name={name(selected)}
        panelId={`${uid}-panel`}
        labelledBy={tabSelected ? `${uid}-tab-${selected.id}` : null}
        target={target}
        dead={d.me.seat !== null && d.view?.seats[d.me.seat]?.alive === false}
      />
    </div>
  );
}

/**
 * Newest at the bottom: the list is kept scrolled there as messages arrive. And (issue 15) an open chat is
 * read, up to its newest message, while the page is in view.
 */
function useNewest(
  list: RefObject<HTMLDivElement | null>,
  game: GameData,
  channel: ChannelId,
  count: number,
): void {
  useEffect(() => {
    const el = list.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [list, count]);
  const visible = usePageVisible();
  const { markRead } = game;
  useEffect(() => {
    if (visible && count > 0) markRead(channel, count);
  }, [visible, count, channel, markRead]);
}

/** Issue 31: the message the address points at, when this channel holds it, is brought into view. */
function useTargetMessage(channel: ChannelView, target: string | null): void {
  const here = target !== null && channel.messages.some((m) => m.id === target);
  useEffect(() => {
    if (here && target !== null)
      document.getElementById(messageAnchor(target))?.scrollIntoView({ block: "center" });
  }, [here, target]);
}

/** One message: its author (the GM's marked), the time, the server's safe HTML; marked when the address points at it. */
function Message(props: { message: ChannelView["messages"][number]; target: boolean }) {
  const t = useT();
  const w = t.play.chats;
  const { lang } = useLang();
  const { timeZone } = useSession();
  const m = props.message;
  return (
    <li
      id={messageAnchor(m.id)}
      className={`play-msg${m.seat === null ? " play-msg-gm" : ""}${props.target ? " play-msg-target" : ""}`}
    >
      <div className="play-msg-head">
        <strong>{m.seat === null ? `${m.author} (${w.gmTag})` : m.author}</strong>{" "}
        <time className="muted" dateTime={new Date(m.at).toISOString()}>
          {formatMoment(m.at, timeZone, lang)}
        </time>
      </div>
      <div className="play-msg-text" dangerouslySetInnerHTML={voteHtml(m.html, t.voteWords)} />
    </li>
  );
}

function ChannelPanel(props: {
  gameId: string;
  game: GameData;
  channel: ChannelView;
  name: string;
  panelId: string;
  labelledBy: string | null;
  /** G7: the viewer is a player who is out of the game. */
  dead: boolean;
  /** The message the address points at, brought into view and marked (issue 31). */
  target: string | null;
}) {
  const t = useT();
  const w = t.play.chats;
  // A keyboard shortcut means nothing on a touch screen: the hint is for keyboards only.
  const coarse = useCoarsePointer();
  const { lang } = useLang();
  const [text, setText] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const list = useRef<HTMLDivElement>(null);
  const c = props.channel;
  const count = c.messages.length;
  const headingId = useId();
  const composerId = useId();

  useNewest(list, props.game, c.id, count);
  const arrival = useArrival(props.game);
  useTargetMessage(c, props.target);
  // G5 (issue 31): a player's draft is checked as it is typed; the GM's words are not flagged.
  const check = useTextCheck(text, c.canPost && props.game.detail?.me.kind !== "gm");

  const send = async (e?: FormEvent) => {
    e?.preventDefault();
    if (busy || arrival.waiting) return;
    if (!text.trim()) {
      setError(w.emptyText);
      return;
    }
    const before = count;
    setBusy(true);
    setError(null);
    try {
      await api.message(props.gameId, c.id, text);
      setText("");
      // The message comes back by the live stream: the button waits for it.
      arrival.wait((g) => (g.detail?.channels.find((x) => x.id === c.id)?.messages.length ?? 0) > before);
    } catch (err) {
      setError(errorText(err, lang));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section
      className="card play-channel"
      id={props.panelId}
      {...(props.labelledBy
        ? { role: "tabpanel", "aria-labelledby": props.labelledBy }
        : { "aria-labelledby": headingId })}
    >
      <h3 id={headingId}>{props.name}</h3>
      <div className="play-messages" ref={list} tabIndex={0} role="log" aria-label={w.messages(props.name)}>
        {count === 0 ? (
          <p className="muted">{w.empty}</p>
        ) : (
          <ol>
            {c.messages.map((m) => (
              <Message key={m.id} message={m} target={m.id === props.target} />
            ))}
          </ol>
        )}
      </div>
      {c.canPost ? (
        <form className="play-composer" onSubmit={send} noValidate>
          <label htmlFor={composerId} className="play-composer-label">
            {w.composer(props.name)}
          </label>
          <textarea
            id={composerId}
            rows={3}
            maxLength={5000}
            value={text}
            aria-describedby={`${composerId}-check${coarse ? "" : ` ${composerId}-hint`}`}
            onChange={(e) => {
              setText(e.target.value);
              setError(null);
            }}
            onKeyDown={(e) => {
              if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) void send();
            }}
          />
          <div id={`${composerId}-check`} aria-live="polite">
            <G5Warning check={check} />
          </div>
          {error && (
            <p className="error" role="alert">
              {error}
            </p>
          )}
          <div className="row">
            <button type="submit" className="primary" disabled={busy || arrival.waiting}>
              {busy ? w.sending : w.send}
              <span className="sr-only">{w.sendTo(props.name)}</span>
            </button>
            {!coarse && (
              <span id={`${composerId}-hint`} className="muted play-hint">
                {w.hint}
              </span>
            )}
          </div>
        </form>
      ) : (
        <p className="muted">{props.dead ? w.deadReadOnly : w.readOnly}</p>
      )}
    </section>
  );
}
