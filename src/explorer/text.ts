import { h } from './dom.js';
import { fromHex } from './ids.js';

// Bytes a user wrote into the tangle (a tagged-data payload's tag and data, metadata and tag features, an alias's
// state metadata): shown as UTF-8 text where they are text, else as hex. Always as a text node (dom.ts builds nothing
// from markup), so a payload of HTML or script is shown literally, never run.

const utf8 = new TextDecoder('utf-8', { fatal: true });
/** Control characters (tab, line feed and carriage return aside): bytes that decode but are not text to read. */
const CONTROL = /(?![\t\n\r])\p{Cc}/u;

/** The bytes (0x-hex, as the API writes them) as text, or undefined where they are not UTF-8 text. */
export function textOf(hexData: string): string | undefined {
  try {
    const text = utf8.decode(fromHex(hexData));
    return CONTROL.test(text) ? undefined : text;
  } catch {
    return undefined;
  }
}

/** Bytes a user wrote, for reading: the text, or the hex and a note that it is not text; empty: said so. */
export function readable(hexData: string | undefined): HTMLElement {
  if (hexData === undefined || hexData === '0x' || hexData === '') return h('span', {}, 'empty');
  const text = textOf(hexData);
  return text === undefined
    ? h('span', {}, h('span', { class: 'id' }, hexData), ' (hex: not UTF-8 text)')
    : h('span', { class: 'data' }, text);
}
