/**
 * Scrubs credentials out of text before it reaches a message or a log line. The secrets are read
 * on each use, since an OAuth refresh replaces the token.
 */
export const REDACTED = "[redacted]";

export class Redactor {
  constructor(private readonly secrets: () => readonly string[]) {}

  text(value: string): string {
    let out = value;
    for (const secret of this.secrets()) {
      // Short values (an authuser index, say) are not secrets and would mangle ordinary text.
      if (secret.length >= 8 && out.includes(secret)) out = out.split(secret).join(REDACTED);
    }
    return out;
  }
}
