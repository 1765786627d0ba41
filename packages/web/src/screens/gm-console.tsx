import type { GameData } from "../use-game.ts";

export default function GmConsole(props: { id: string; game: GameData }) {
  return <p>{props.id}</p>;
}
