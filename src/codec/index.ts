// The codec's building blocks: primitives, bytes, structs, unions and arrays with their bounds, one reader and one
// writer, the JSON numbers and hex the models use, and the typed error every decode throws. The room's public face.
// To add a combinator: a file here (or a function in combinators.ts) returning a `Codec` (codec.ts: encode, decode,
// sizeOf, toJson, fromJson), bounded on decode, with its fixed size where it has one (layout.ts reads it).
export { fixedBytes, text, type VarBytesOptions, varBytes } from './bytes.js';
export type { Codec, Infer, Json } from './codec.js';
export {
  assertBytes,
  assertModel,
  decode,
  encode,
  encodeJson,
  viaModel,
  withEncoding,
  withJsonEncoding,
} from './codec.js';
export {
  type ArrayCodec,
  type ArrayOptions,
  arrayOf,
  type NotAllowed,
  optional,
  optionalPayload,
  requiredPayload,
  sized,
  union,
} from './combinators.js';
export { CodecError, type CodecErrorCode, describeValue } from './errors.js';
export { fromHex, toHex } from './hex.js';
export { elementOffsets, fieldOffset, fixedOffset } from './layout.js';
export { pooledCopy } from './pooled.js';
export {
  bool,
  constant,
  i64,
  tag,
  type UintCodec,
  u8,
  u16,
  u32,
  u64,
  u64WithJsonDefault,
  u256,
  uintRange,
} from './primitives.js';
export { Reader } from './reader.js';
export {
  type Fields,
  type GeneratedStruct,
  type GeneratedStructs,
  generatedStruct,
  type StructCodec,
  type StructFunctions,
  type StructHelpers,
  type StructShape,
  struct,
  structShapes,
} from './struct.js';
export { Writer } from './writer.js';
