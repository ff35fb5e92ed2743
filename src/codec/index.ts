export type { Codec, Infer, Json } from './codec.js';
export { assertBytes, decode, encode, withEncoding } from './codec.js';
export { arrayOf, optionalPayload, union, type ArrayOptions, type Unsupported } from './combinators.js';
export {
  struct,
  structShapes,
  structsOf,
  type GeneratedStruct,
  type GeneratedStructs,
  type StructCodec,
  type StructFunctions,
  type StructHelpers,
  type StructShape,
} from './struct.js';
export { CodecError, type CodecErrorCode } from './errors.js';
export {
  bool,
  fixedBytes,
  i64,
  tag,
  u16,
  u256,
  u32,
  u64,
  u64WithJsonDefault,
  u8,
  uintRange,
  varBytes,
  type UintCodec,
  type VarBytesOptions,
} from './primitives.js';
export { Reader } from './reader.js';
export { Writer } from './writer.js';
