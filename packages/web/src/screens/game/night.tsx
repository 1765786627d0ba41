import type { GameData } from "../../use-game.ts";

export function NightPanel(props: { id: string; game: GameData }) {
  return <p>{props.id}</p>;
}
