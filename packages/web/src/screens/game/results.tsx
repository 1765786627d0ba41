import type { GameData } from "../../use-game.ts";

export function Results(props: { id: string; game: GameData }) {
  return <p>{props.id}</p>;
}
