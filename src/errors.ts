/**
 * The one error model of tangle-core. Every error the library raises on purpose is a `TangleError`: `CodecError`
 * (bytes or JSON that do not decode), `ValidationError` (a decoded value that breaks a protocol rule) and
 * `LedgerError` (the ledger index). All three are built the same way, `new XError(code, detail, { path, offset,
 * cause })`, and carry:
 * - `code`: a stable string literal, documented in the README and never renamed (Kit's rule);
 * - `path`: the field it is about (`payload.essence.outputs[3].amount`; '' for the whole value), built while the
 *   error travels up through the structs that contain the field;
 * - `detail`: what is wrong, expected against found, never more than a short quote of the input;
 * - `offset`: the byte offset where a failing read began, when decoding bytes;
 * - `message`: `CODE at path @offset: detail`, for logs.
 * Bad arguments (the wrong JavaScript type) are `TypeError`/`RangeError` instead: a caller's mistake, not bad data.
 */
export interface ErrorContext {
  readonly path?: string | undefined;
  readonly offset?: number | undefined;
  readonly cause?: unknown;
}

export abstract class TangleError<Code extends string = string> extends Error {
  readonly code: Code;
  path: string;
  readonly detail: string;
  readonly offset: number | undefined;

  constructor(code: Code, detail: string, context: ErrorContext = {}) {
    super('', context.cause === undefined ? undefined : { cause: context.cause });
    this.code = code;
    this.detail = detail;
    this.path = context.path ?? '';
    this.offset = context.offset;
    this.message = this.describe();
  }

  /**
   * Puts a parent segment (`outputs`, `[3]`) in front of the path; called as the error unwinds, so success pays
   * nothing.
   */
  prefix(segment: string): this {
    this.path = joinPath(segment, this.path);
    this.message = this.describe();
    return this;
  }

  private describe(): string {
    const off = this.offset === undefined ? '' : ` @${this.offset}`;
    return `${this.code} at ${this.path === '' ? '(root)' : this.path}${off}: ${this.detail}`;
  }
}

/** Joins a parent segment (`outputs`, `[3]`) onto a child path (`amount`, `[0].type`, ``). */
export function joinPath(segment: string, path: string): string {
  if (path === '') return segment;
  if (segment === '') return path;
  return path.charCodeAt(0) === 91 /* [ */ ? segment + path : `${segment}.${path}`;
}
