/**
 * Whether `name` is an IANA time zone (`Europe/Paris`, `UTC`, or an alias such as `US/Eastern`).
 * Node 24's Intl also takes UTC offsets (`+01:00`, `-0530`) as time zones: they are not zone
 * names, follow no daylight saving time, and are refused.
 */
export function isIanaTimeZone(name: string): boolean {
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat('en', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return false;
  }
  return !/^[+-]/.test(resolved) && !/^[+-]/.test(name.trim());
}
