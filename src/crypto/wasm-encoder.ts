// The few pieces of the WebAssembly binary format (core spec 1.0 and the bulk-memory proposal) that
// blake2b-wasm.ts needs to write its module: LEB128 numbers, the instructions it uses, and the sections of a module
// with one memory, some functions and exports. Not a general assembler: what is not used is not here. It runs once,
// when the module loads, so instructions are written straight into one array: no array per instruction.

/** Unsigned LEB128 of a non-negative integer below 2^32, appended to `out`. */
function uleb(out: number[], n: number): void {
  for (;;) {
    const byte = n & 0x7f;
    n >>>= 7;
    if (n === 0) {
      out.push(byte);
      return;
    }
    out.push(byte | 0x80);
  }
}

/** Signed LEB128 of a 64-bit two's-complement value, appended to `out`. */
function sleb(out: number[], value: bigint): void {
  let v = BigInt.asIntN(64, value);
  for (;;) {
    const byte = Number(v & 0x7fn);
    v >>= 7n;
    if ((v === 0n && (byte & 0x40) === 0) || (v === -1n && (byte & 0x40) !== 0)) {
      out.push(byte);
      return;
    }
    out.push(byte | 0x80);
  }
}

export const I32 = 0x7f;
export const I64 = 0x7e;

/** A function body being written, instruction by instruction, named as in the text format. */
export class Code {
  readonly bytes: number[] = [];
  /** The opcode, then each immediate as unsigned LEB128. */
  private op(code: number, ...immediates: number[]): this {
    this.bytes.push(code);
    for (const n of immediates) uleb(this.bytes, n);
    return this;
  }
  block = () => this.op(0x02, 0x40);
  loop = () => this.op(0x03, 0x40);
  end = () => this.op(0x0b);
  br = (depth: number) => this.op(0x0c, depth);
  brIf = (depth: number) => this.op(0x0d, depth);
  call = (fn: number) => this.op(0x10, fn);
  select = () => this.op(0x1b);
  get = (local: number) => this.op(0x20, local);
  set = (local: number) => this.op(0x21, local);
  // Alignment hint 0: inputs may start anywhere. The hint never changes a result, only what an engine may assume.
  i64Load = (offset: number) => this.op(0x29, 0, offset);
  i64Store = (offset: number) => this.op(0x37, 0, offset);
  i32Const = (n: number) => {
    this.bytes.push(0x41);
    sleb(this.bytes, BigInt(n | 0));
    return this;
  };
  i64Const = (n: bigint) => {
    this.bytes.push(0x42);
    sleb(this.bytes, n);
    return this;
  };
  i32Eqz = () => this.op(0x45);
  i32Add = () => this.op(0x6a);
  i32Sub = () => this.op(0x6b);
  i32Shl = () => this.op(0x74);
  i32ShrU = () => this.op(0x76);
  i64Add = () => this.op(0x7c);
  i64Xor = () => this.op(0x85);
  i64Rotr = () => this.op(0x8a);
  i64ExtendI32U = () => this.op(0xad);
  memoryCopy = () => this.op(0xfc, 0x0a, 0, 0);
  memoryFill = () => this.op(0xfc, 0x0b, 0);
}

export interface WasmFunction {
  params: number[];
  /** Extra locals, in order after the parameters; all of one type here. */
  locals: { count: number; type: number };
  /** The instructions, without the final `end`. */
  code: Code;
  /** Exported under this name, or internal. */
  export?: string;
}

/** Appends without spreading: a function body is thousands of bytes. */
function append(out: number[], ...parts: number[][]): number[] {
  for (const part of parts) for (const byte of part) out.push(byte);
  return out;
}
const sized = (content: number[]) => {
  const out: number[] = [];
  uleb(out, content.length);
  return append(out, content);
};
const vec = (items: number[][]) => {
  const out: number[] = [];
  uleb(out, items.length);
  return append(out, ...items);
};
const name = (s: string) => sized(Array.from(s, (c) => c.charCodeAt(0)));
const index = (i: number) => {
  const out: number[] = [];
  uleb(out, i);
  return out;
};

/** A module of one memory of `pages` × 64 KiB, fixed in size (so views of it stay valid), exported as `memory`. */
export function wasmModule(pages: number, functions: WasmFunction[]): Uint8Array {
  const types = functions.map((f) => append([0x60], vec(f.params.map((p) => [p])), [0x00]));
  const exports = functions.flatMap((f, i) => (f.export === undefined ? [] : [append(name(f.export), [0], index(i))]));
  exports.push(append(name('memory'), [0x02, 0x00]));
  const codes = functions.map((f) => {
    const locals = f.locals.count === 0 ? [0] : append([1], index(f.locals.count), [f.locals.type]);
    return sized(append(locals, f.code.end().bytes));
  });
  const section = (id: number, content: number[]) => append([id], sized(content));
  return Uint8Array.from(
    append(
      [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
      section(1, vec(types)),
      section(3, vec(functions.map((_, i) => index(i)))),
      section(5, append([0x01, 0x01], index(pages), index(pages))),
      section(7, vec(exports)),
      section(10, vec(codes)),
    ),
  );
}
