import { TangleError } from '../errors.js';

/**
 * Errors raised while turning bytes or JSON into the typed model and back.
 *
 * Built like every error of the package (`TangleError`: code, path, detail, offset). Messages say what was
 * expected and what was found; they never dump the input.
 */
export type CodecErrorCode =
  /** The input ended before the value did. */
  | 'TRUNCATED'
  /** Bytes are left after the top-level value. */
  | 'TRAILING_BYTES'
  /** A count or length prefix (or the whole input) is outside the limits of the spec. */
  | 'LENGTH_OUT_OF_RANGE'
  /** A payload did not occupy exactly the number of bytes its length prefix declares. */
  | 'LENGTH_MISMATCH'
  /** A type tag the protocol does not have at this kind of position. */
  | 'UNKNOWN_TYPE'
  /**
   * A type the protocol has, in a place that does not allow it: a treasury output in a transaction, a state
   * controller condition in a basic output, an issuer feature among an NFT's mutable features.
   */
  | 'TYPE_NOT_ALLOWED'
  /** A number outside its range, or a model value of the wrong JavaScript type. */
  | 'VALUE_OUT_OF_RANGE'
  /** JSON: a required field is absent. */
  | 'MISSING_FIELD'
  /** JSON: a field that the type does not have. */
  | 'UNEXPECTED_FIELD'
  /** JSON: a value of the wrong shape (not a string, bad hex, bad decimal, leading zeros…). */
  | 'INVALID_VALUE'
  /** Bech32: the checksum does not match. */
  | 'INVALID_CHECKSUM'
  /** Bech32: the human-readable part is not the expected network's. */
  | 'HRP_MISMATCH'
  /** Keys that the wire keeps in ascending order, each once (a Nova metadata map), are out of order or repeated. */
  | 'NOT_SORTED';

/** Bytes or JSON that do not decode (or a model that does not encode). See `TangleError` for the fields. */
export class CodecError extends TangleError<CodecErrorCode> {
  override name = 'CodecError';
}

/** Adds `segment` to the path of a CodecError; anything else is a bug and is passed on untouched. */
export function atPath(e: unknown, segment: string): unknown {
  if (e instanceof CodecError) e.prefix(segment);
  return e;
}

/** Short, safe description of a value for error messages: never more than ~40 characters of user input. */
export function describeValue(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return `array(${v.length})`;
  if (v instanceof Uint8Array) return `bytes(${v.length})`;
  switch (typeof v) {
    case 'string':
      return v.length > 40 ? `string(${v.length}) "${v.slice(0, 32)}…"` : JSON.stringify(v);
    case 'bigint': {
      const text = `${v}n`;
      return text.length > 40 ? `a bigint of ${text.length - (v < 0n ? 2 : 1)} digits` : text;
    }
    case 'number':
    case 'boolean':
    case 'undefined':
      return String(v);
    default:
      return typeof v;
  }
}
