import { useEffect, useState } from "react";
import { errorText, useLang, useT } from "../i18n/index.tsx";

/**
 * F1: the seed published after the end, checked in the browser against the SHA-256 published before the
 * deal. Used by a finished game's log and by a published notebook's page (issue 18).
 */

/** SHA-256 of the seed's UTF-8 bytes as lowercase hex: exactly the engine's seedCommitment (rng.ts). */
async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

export function SeedCheck(props: { commitment: string | null; seed: string | null }) {
  const t = useT();
  const { lang } = useLang();
  const [hash, setHash] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const seed = props.seed;
  useEffect(() => {
    if (seed === null) return;
    let stopped = false;
    sha256Hex(seed).then(
      (h) => {
        if (!stopped) setHash(h);
      },
      (e: unknown) => {
        if (!stopped) setError(errorText(e, lang));
      },
    );
    return () => {
      stopped = true;
    };
  }, [seed, lang]);
  const match = hash !== null && props.commitment !== null && hash === props.commitment.toLowerCase();
  return (
    <div className="card">
      <h3>{t.gm.log.seed}</h3>
      {seed === null ? (
        <p>{t.gm.log.noSeed}</p>
      ) : (
        <>
          <p className="muted">{t.gm.log.seedIntro}</p>
          <dl className="seed">
            <dt>{t.gm.log.commitment}</dt>
            <dd>
              <code>{props.commitment ?? t.gm.log.noCommitment}</code>
            </dd>
            <dt>{t.gm.log.seedValue}</dt>
            <dd>
              <code>{seed}</code>
            </dd>
            <dt>{t.gm.log.computed}</dt>
            <dd>
              <code>{hash ?? t.gm.log.computing}</code>
            </dd>
          </dl>
          {error && (
            <p className="error" role="alert">
              {error}
            </p>
          )}
          {hash !== null && props.commitment !== null && (
            <p role="status" className={match ? "ok seed-result" : "error seed-result"}>
              {match ? t.gm.log.match : t.gm.log.mismatch}
            </p>
          )}
        </>
      )}
    </div>
  );
}
