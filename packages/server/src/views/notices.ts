import type { Lang } from "@forum-mafia/engine";
import type { Room } from "../log/room.ts";

const NOTICES = {
  resultsPending: {
    ru: "Приём ночных действий закрыт. До публикации итогов ночи нельзя заявлять роли (в том числе ложно) и рассказывать о ночных действиях (G10).",
    en: "Night actions are closed. Until the night's results are published, nobody may claim or fake-claim a role or announce night actions (G10).",
  },
  mafiaReopened: {
    ru: "Ведущий разрешил мафии изменить ночное действие: это наказание за нарушение G10.",
    en: "The GM has let the mafia change its night action: the penalty for breaking G10.",
  },
  paused: { ru: "Игра приостановлена ведущим.", en: "The GM has paused the game." },
} as const;

/** The warnings the game thread shows above its posts now (G10, the pause). */
export function notices(room: Room, lang: Lang): string[] {
  const out: string[] = [];
  if (room.status !== "running") return out;
  if (room.resultsPending) out.push(NOTICES.resultsPending[lang]);
  if (room.mafiaReopened) out.push(NOTICES.mafiaReopened[lang]);
  if (room.paused) out.push(NOTICES.paused[lang]);
  return out;
}
