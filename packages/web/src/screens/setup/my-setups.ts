import type { Lang, MySetups } from "@forum-mafia/protocol";
import { useEffect, useState } from "react";
import { api } from "../../api.ts";

/**
 * The GM's saved setups and the role names in the user's language, as the server words them everywhere
 * (GameDetail.roleNames): one read of `GET /api/me/setups?lang=`, which the editor needs before it can
 * show its roles. A failed read is tried again a little later, three times at most.
 */
export function useMySetups(lang: Lang): { mine: MySetups | null; failed: boolean } {
  const [state, setState] = useState<{ mine: MySetups | null; failed: boolean } | null>(null);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let live = true;
    api.mySetups(lang).then(
      (mine) => live && setState({ mine, failed: false }),
      () => {
        if (!live) return;
        setState((s) => ({ mine: s?.mine ?? null, failed: true }));
        if (attempt < 3) setTimeout(() => live && setAttempt((a) => a + 1), 2_000);
      },
    );
    return () => {
      live = false;
    };
  }, [lang, attempt]);
  return { mine: state?.mine ?? null, failed: state?.failed === true && state.mine === null };
}
