import type { GameData } from "../../use-game.ts";

export function Chats(props: { id: string; game: GameData }) {
  return <p>{props.id}</p>;
}
