// A JSON text's checks that JSON.parse does not make, shared by the REST bodies and the WebSocket frames.
import { apiError, type ApiError } from '../../../src-shared/errors/api-error';

interface JsonFrame {
  /** The object's keys so far (a few: a list is cheaper than a set); undefined for an array. */
  readonly keys: string[] | undefined;
  /**
   * The same keys once there are more than FEW_KEYS: looked up in the list, each key cost a pass over all before it,
   * and a 64 KiB body of 7,000 keys held the venue's thread for 60 ms (2 ms to parse it).
   */
  many: Set<string> | undefined;
  /** The frame this one is a value of; its path is worked out only for a message (see pathOf). */
  readonly parent: JsonFrame | undefined;
  /** In an object: the next string is a key. */
  expectKey: boolean;
  /** The key whose value is being read, for the path of a frame opened as that value. */
  key: string | undefined;
}

// The JSON text's structural characters, as char codes.
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;

/** Keys an object holds before they are looked up in a set rather than the list. */
const FEW_KEYS = 16;

/** A UTF-16 half of a pair standing alone: in unicode mode a well-formed pair is one code point and never matches. */
export const LONE_SURROGATE = /\p{Cs}/u;

/**
 * What this JSON text (a request body, a WebSocket frame: `whole` in the message) holds that JSON.parse takes without
 * a word, as an E0101, or undefined. Only called on text that parsed as JSON and was valid UTF-8; one pass over it.
 *
 * - A key an object names twice (`side`, `balances.BTC`): JSON.parse keeps the last value, so
 *   {"side":"BUY",...,"side":"SELL"} placed a SELL; the venue would guess which the client meant, where a query
 *   parameter given twice is refused. Keys are compared as parsed, so an escaped spelling ("s\u0069de") is the same.
 * - A \u escape of a lone surrogate, in a key or a value: it names no character. It was echoed as JSON that strict
 *   parsers refuse, and stored as bytes that came back after a restart as U+FFFD.
 */
export function jsonTextRefusal(text: string, whole: string): ApiError | undefined {
  const stack: JsonFrame[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const top = stack[stack.length - 1];
    if (c === QUOTE) {
      let j = i + 1;
      let escaped = false;
      for (let d = text.charCodeAt(j); d !== QUOTE; d = text.charCodeAt(j)) {
        if (d === BACKSLASH) {
          escaped = true;
          j += 2;
        } else {
          j += 1;
        }
      }
      const isKey = top?.keys !== undefined && top.expectKey;
      // Bytes were checked as UTF-8, so only an escape can make a lone surrogate: a plain value needs no look.
      if (isKey || escaped) {
        const raw = text.slice(i + 1, j);
        const value = escaped ? (JSON.parse(`"${raw}"`) as string) : raw;
        if (escaped && LONE_SURROGATE.test(value)) {
          // Where it is: the object whose key it is, the key whose value it is, or the array it is in.
          const where = top === undefined ? '' : isKey ? pathOf(top) : top.keys === undefined ? `${pathOf(top)}[]` : joinPath(pathOf(top), top.key ?? '');
          const name = where === '' || where === '[]' ? whole : where.slice(0, 100);
          return apiError('E0101_InvalidArgument', `${name}: a \\u escape of a lone surrogate is no character (escape both halves of a pair)`);
        }
        if (top?.keys !== undefined && isKey) {
          if (!addKey(top, top.keys, value)) return apiError('E0101_InvalidArgument', `${joinPath(pathOf(top), value).slice(0, 100)}: given more than once in the ${whole}`);
          top.key = value;
          top.expectKey = false;
        }
      }
      i = j;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      stack.push({ keys: c === OPEN_BRACE ? [] : undefined, many: undefined, parent: top, expectKey: c === OPEN_BRACE, key: undefined });
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      stack.pop();
    } else if (c === COMMA && top?.keys !== undefined) {
      top.expectKey = true;
    }
  }
  return undefined;
}

/** Adds `key` to an object's keys; false when it is there already. */
function addKey(frame: JsonFrame, keys: string[], key: string): boolean {
  if (frame.many !== undefined) {
    if (frame.many.has(key)) return false;
    frame.many.add(key);
    return true;
  }
  if (keys.includes(key)) return false;
  keys.push(key);
  if (keys.length > FEW_KEYS) frame.many = new Set(keys);
  return true;
}

/** Where a frame sits, for a message: `balances` for the object under that key, `data.legs[]` in an array. */
function pathOf(frame: JsonFrame): string {
  // Up the frames without recursion: a frame may nest thousands deep. null stands for an array's item.
  const steps: (string | null)[] = [];
  for (let f = frame; f.parent !== undefined; f = f.parent) steps.push(f.parent.keys === undefined ? null : (f.parent.key ?? ''));
  let path = '';
  for (let i = steps.length - 1; i >= 0; i--) {
    const step = steps[i] as string | null;
    path = step === null ? `${path}[]` : joinPath(path, step);
  }
  return path;
}

function joinPath(parent: string, key: string): string {
  return parent === '' ? key : `${parent}.${key}`;
}
