// Venue errors with the catalogue's title, message and suggested action, and fill notices; newest first. The store
// keeps only the newest few and closes info notices itself; the bar's height is capped so it never covers a column.
import { useDesk } from '../../stores/desk-store';

export function NoticesBar(): React.JSX.Element | null {
  const notices = useDesk((s) => s.notices);
  const dismiss = useDesk((s) => s.dismiss);
  if (notices.length === 0) return null;
  return (
    <div className="notices" aria-label="Notices">
      {notices.map((n) => (
        <div key={n.id} className={`notice ${n.kind}`} role={n.kind === 'error' ? 'alert' : 'status'}>
          <strong>{n.title}</strong>
          {n.ref !== '' && <code className="muted"> {n.ref}</code>}
          <div>{n.detail}</div>
          {n.explanation !== '' && <div className="muted">{n.explanation}</div>}
          {n.action !== '' && <div className="action">{n.action}</div>}
          <button type="button" aria-label={`Dismiss ${n.title}`} onClick={() => dismiss(n.id)}>✕</button>
        </div>
      ))}
    </div>
  );
}
