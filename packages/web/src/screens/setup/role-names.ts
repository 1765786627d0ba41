import type { Lang } from "@forum-mafia/protocol";
import type { RoleId } from "@forum-mafia/protocol/roles";
import { useEffect, useState } from "react";
import { api } from "../../api.ts";

type RoleNames = Readonly<Record<RoleId, string>>;

/**
 * The role names in the user's language, as the server words them everywhere (GameDetail.roleNames).
 * The editor has no game to read them from, and the contract has no route of role names alone: they come
 * with «Мои игры» (`GET /api/me/games?lang=`), which the signed-in GM may always read.
 */
export function useRoleNames(lang: Lang): { names: RoleNames | null; failed: boolean } {
  const [state, setState] = useState<{ lang: Lang; names: RoleNames | null; failed: boolean } | null>(null);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let live = true;
    api.myGames(lang).then(
      (res) => live && setState({ lang, names: res.roleNames, failed: false }),
      () => {
        if (!live) return;
        setState((s) => ({ lang, names: s?.names ?? null, failed: true }));
        // One more try a little later: the names are needed to show the editor at all.
        if (attempt < 3) setTimeout(() => live && setAttempt((a) => a + 1), 2_000);
      },
    );
    return () => {
      live = false;
    };
  }, [lang, attempt]);
  return { names: state?.names ?? null, failed: state?.failed === true && state.names === null };
}
