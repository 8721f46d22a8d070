/**
 * The markup a model reads around untrusted text (`<attachment title="…">…</attachment>`), and the
 * one encoder of the text placed in it: `&`, `<` and `>` become entities in element text, and `"`
 * and line breaks too in attribute values, as in XML. So a payload, a file name or a title can
 * neither close nor open an element nor end an attribute; `decodeMarkup` gives the text back.
 */

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  '\n': '&#10;',
  '\r': '&#13;',
};
const DECODED: Record<string, string> = Object.fromEntries(
  Object.entries(ENTITIES).map(([character, entity]) => [entity, character]),
);

/** Text inside an element: it keeps its quotes and lines, so JSON and prose stay readable. */
export function markupText(text: string): string {
  return text.replace(/[&<>]/g, (character) => ENTITIES[character]);
}

/** An attribute value, to be written between double quotes. */
export function markupAttribute(value: string): string {
  return value.replace(/[&<>"\n\r]/g, (character) => ENTITIES[character]);
}

/** The text `markupText` or `markupAttribute` encoded. */
export function decodeMarkup(encoded: string): string {
  return encoded.replace(/&(?:amp|lt|gt|quot|#10|#13);/g, (entity) => DECODED[entity]);
}

/** `<name a="…">` + newline + body + newline + `</name>`, every attribute and the body encoded. */
export function markupElement(name: string, attributes: Record<string, string>, body: string): string {
  const written = Object.entries(attributes)
    .map(([attribute, value]) => ` ${attribute}="${markupAttribute(value)}"`)
    .join('');
  return `<${name}${written}>\n${markupText(body)}\n</${name}>`;
}
