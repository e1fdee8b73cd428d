// The primitive table that scripts/generate.mjs writes the runtime table and both classes' primitive methods
// from, with how each writer checks its argument and encodes it.

/**
 * How a writer checks its argument's type before it reads the pointer: `fn` is the table's `check`, `line` the
 * writer's first statement. A value of another type is `ERR_INVALID_ARG_TYPE` (nothing converted, so no user code,
 * a `valueOf`, runs); a `long`'s codec call then checks that a `number` is a safe integer.
 */
export const CHECK = {
  boolean: { fn: "isBoolean", line: 'if (typeof v !== "boolean") invalidValue("a boolean", v);' },
  number: { fn: "isNumber", line: 'if (typeof v !== "number") invalidValue("a number", v);' },
  char: {
    fn: "isCharValue",
    line: 'if (typeof v !== "string" && typeof v !== "number") invalidValue("a string or a number", v);',
  },
  long: {
    fn: "isLongValue",
    line: 'if (typeof v !== "bigint" && typeof v !== "number") invalidValue("a bigint or a number", v);',
  },
};

/**
 * The statements that encode `v` at `d[i]` with codec `c` (one, but `long`: a `bigint` or a `number`), with
 * `advance`, a sync writer's move of the cursor, if given: before an encode that cannot throw (V8 then keeps the
 * window's map known for the store), after one that can (`throws`), so a rejected value moves nothing.
 */
export const encode =
  (codec, throws = false) =>
  (c, d, i, v, advance) => {
    const set = `${c}.set${codec}(${d}, ${i}, ${v});`;
    return advance === undefined ? [set] : throws ? [set, advance] : [advance, set];
  };
// A bigint always encodes (mod 2^64); a number must be a safe integer.
const encodeLong = (c, d, i, v, advance) =>
  advance === undefined
    ? [
        `if (typeof ${v} === "bigint") ${c}.setBigInt64(${d}, ${i}, ${v});`,
        `else ${c}.setSafeInt64(${d}, ${i}, ${v});`,
      ]
    : [
        `if (typeof ${v} === "bigint") {`,
        `  ${advance}`,
        `  ${c}.setBigInt64(${d}, ${i}, ${v});`,
        "} else {",
        `  ${c}.setSafeInt64(${d}, ${i}, ${v});`,
        `  ${advance}`,
        "}",
      ];

/**
 * The primitives, in the order of Java's `DataInput`. `name` makes the methods' names (`readInt`,
 * `writeIntAt`, ...); `codec` the `@rafkit/bits` view-codec accessors (`getInt32`); `read`/`write` the
 * TypeScript types; \`array\` the typed arrays of its bulk methods (\`readInts\`, \`writeInts\`), if any. A
 * primitive with \`writesAs\` has no writer of its own: it is written by that one's. \`throws\` says which codec call
 * can throw for some value (\`"decode"\`, \`"encode"\`), where the async methods must turn it into a rejection and
 * the sync writer must encode before it moves the cursor.
 */
export const PRIMITIVES = [
  {
    constant: "BOOLEAN",
    name: "Boolean",
    doc: "`boolean`: one byte, true when not 0.",
    width: 1,
    codec: "Boolean",
    read: "boolean",
    write: "boolean",
    check: "boolean",
  },
  {
    constant: "BYTE",
    name: "Byte",
    doc: "`byte`: signed 8 bits (writes keep the low 8 bits).",
    width: 1,
    codec: "Int8",
    read: "number",
    write: "number",
    check: "number",
  },
  {
    constant: "UNSIGNED_BYTE",
    name: "UnsignedByte",
    doc: "Unsigned 8 bits (read only: `writeByte` writes it).",
    width: 1,
    codec: "Uint8",
    read: "number",
    writesAs: "BYTE",
  },
  {
    constant: "SHORT",
    name: "Short",
    array: "Int16Array | Uint16Array",
    doc: "`short`: signed 16 bits.",
    width: 2,
    codec: "Int16",
    read: "number",
    write: "number",
    check: "number",
  },
  {
    constant: "UNSIGNED_SHORT",
    name: "UnsignedShort",
    doc: "Unsigned 16 bits.",
    width: 2,
    codec: "Uint16",
    read: "number",
    writesAs: "SHORT",
  },
  {
    constant: "CHAR",
    name: "Char",
    doc: "`char`: one UTF-16 code unit, read as a one-character string.",
    width: 2,
    codec: "Char",
    read: "string",
    write: "string | number",
    check: "char",
    // An empty string has no code unit to write.
    throws: "encode",
  },
  {
    constant: "INT",
    name: "Int",
    array: "Int32Array | Uint32Array",
    doc: "`int`: signed 32 bits.",
    width: 4,
    codec: "Int32",
    read: "number",
    write: "number",
    check: "number",
  },
  {
    constant: "LONG",
    name: "Long",
    array: "BigInt64Array | BigUint64Array",
    doc: "`long` as a `bigint`; writes take a `bigint` (mod 2^64) or a safe-integer `number`.",
    width: 8,
    codec: "BigInt64",
    read: "bigint",
    write: "bigint | number",
    check: "long",
    encode: encodeLong,
    throws: "encode",
  },
  {
    constant: "LONG_AS_NUMBER",
    name: "LongAsNumber",
    doc: "`long` as a `number`: a `RangeError` when it is not a safe integer.",
    width: 8,
    codec: "SafeInt64",
    // The codec's error names the window's offset; this names the value (src/safe-long.ts).
    decode: "getSafeLong",
    read: "number",
    writesAs: "LONG",
    throws: "decode",
  },
  {
    constant: "FLOAT",
    name: "Float",
    array: "Float32Array",
    doc: "`float`: IEEE 754 single; NaN written as Java's canonical NaN.",
    width: 4,
    codec: "Float32",
    read: "number",
    write: "number",
    check: "number",
  },
  {
    constant: "DOUBLE",
    name: "Double",
    array: "Float64Array",
    doc: "`double`: IEEE 754 double; NaN written as Java's canonical NaN.",
    width: 8,
    codec: "Float64",
    read: "number",
    write: "number",
    check: "number",
  },
];
