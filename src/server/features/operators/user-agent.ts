import Bowser from 'bowser';

/**
 * "Chrome on Linux": enough for an operator to recognise their own sessions, and nothing more (no
 * version, no device model, no address). Bowser does the reading of user agents.
 */
export function browserSummary(userAgent: string | undefined): string {
  if (!userAgent) return 'Unknown browser';
  try {
    const parsed = Bowser.parse(userAgent.slice(0, 512));
    const browser = parsed.browser.name ?? 'Unknown browser';
    const os = parsed.os.name;
    return os ? `${browser} on ${os}` : browser;
  } catch {
    return 'Unknown browser';
  }
}
