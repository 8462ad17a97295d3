// Whoever writes a log line or an error message that might quote a request, a response or a library's complaint
// passes it through here with the secrets in play, so a secret never reaches a log (ARCHITECTURE rule 5).

export const REDACTED = '[redacted]';

export function redact(text: string, secrets: Iterable<string | undefined>): string {
  // Longest first, so a secret that contains another is removed whole rather than leaving its remainder behind.
  const present = [...new Set([...secrets].filter((s): s is string => s !== undefined && s !== ''))].sort(
    (a, b) => b.length - a.length,
  );
  let out = text;
  for (const secret of present) out = out.split(secret).join(REDACTED);
  return out;
}
