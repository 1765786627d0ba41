import { useT } from "../../i18n/index.tsx";

/**
 * A tab's unread count (issue 15). The number is drawn by the style sheet from `data-count` and the
 * badge is hidden from assistive technology, so the tab's name stays its word («Тема», «Чат мафии»),
 * found and announced as before; the count is read out as the tab's description, from the hidden text
 * the tab points at with aria-describedby (`id`).
 */
export function UnreadBadge(props: { count: number; id: string }) {
  const t = useT();
  if (props.count <= 0) return null;
  return (
    <>
      <span className="unread-badge" data-count={props.count > 99 ? "99+" : props.count} aria-hidden="true" />
      <span hidden id={props.id}>
        {t.game.unread.count(props.count)}
      </span>
    </>
  );
}
