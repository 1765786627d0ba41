import type { GameDetail } from "@forum-mafia/protocol";

export default function GameLog(props: { id: string; detail: GameDetail }) {
  return <p>{props.id + props.detail.summary.title}</p>;
}
