/**
 * The text items a tool answered, joined by newlines, as the model gets them: at most `maxBytes` of
 * UTF-8. Longer output is cut on a character boundary and ends with a note saying how much was left
 * out; items past the cut are measured, never copied.
 */
export function capToolOutput(items: readonly string[], maxBytes: number): string {
  const kept: string[] = [];
  let keptBytes = 0;
  let totalBytes = 0;
  let cut = false;
  items.forEach((item, index) => {
    const separator = index > 0 ? '\n' : '';
    const size = separator.length + Buffer.byteLength(item, 'utf8');
    totalBytes += size;
    if (cut) return;
    if (keptBytes + size <= maxBytes) {
      kept.push(separator, item);
      keptBytes += size;
      return;
    }
    cut = true;
    const room = maxBytes - keptBytes - separator.length;
    if (room < 0) return;
    const head = prefixWithin(item, room);
    kept.push(separator, head);
    keptBytes += separator.length + Buffer.byteLength(head, 'utf8');
  });
  const text = kept.join('');
  if (!cut) return text;
  return `${text}\n[Output truncated: the tool returned ${totalBytes} bytes; only the first ${keptBytes} are shown.]`;
}

/** The longest start of `text` within `maxBytes` of UTF-8, on a character boundary. */
function prefixWithin(text: string, maxBytes: number): string {
  // A UTF-16 unit is at least one byte: no more than `maxBytes` units can fit.
  const bytes = Buffer.from(text.slice(0, maxBytes), 'utf8');
  if (bytes.length <= maxBytes) return bytes.toString('utf8');
  let end = maxBytes;
  // Back up to the start of a character: continuation bytes are 10xxxxxx.
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString('utf8');
}
