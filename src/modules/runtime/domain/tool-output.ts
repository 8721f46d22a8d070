/**
 * Text a tool hands back to the model, at most `maxBytes` of UTF-8: longer output is cut on a
 * character boundary and ends with a note saying how much was left out.
 */
export function capToolOutput(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return text;
  let end = maxBytes;
  // Back up to the start of a character: continuation bytes are 10xxxxxx.
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
  const kept = bytes.subarray(0, end).toString('utf8');
  return `${kept}\n[Output truncated: the tool returned ${bytes.length} bytes; only the first ${end} are shown.]`;
}
