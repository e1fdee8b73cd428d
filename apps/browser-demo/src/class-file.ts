// A Java .class file's header and constant pool, read with rafkit as DataInput reads them (JVMS §4.1, §4.4).
import type { RandomAccessFile } from "@rafkit/raf";
import type { PoolEntry } from "./protocol";

const TAGS: Record<number, string> = {
  1: "Utf8",
  3: "Integer",
  4: "Float",
  5: "Long",
  6: "Double",
  7: "Class",
  8: "String",
  9: "Fieldref",
  10: "Methodref",
  11: "InterfaceMethodref",
  12: "NameAndType",
  15: "MethodHandle",
  16: "MethodType",
  17: "Dynamic",
  18: "InvokeDynamic",
  19: "Module",
  20: "Package",
};

/** Whether `f` starts with the class-file magic 0xCAFEBABE. */
export function isClassFile(f: RandomAccessFile): boolean {
  return f.length() >= 10 && f.readIntAt(0) === (0xcafebabe | 0);
}

/** The class's version, names and constant pool (Utf8 entries through `readUTF`). Throws on a malformed file. */
export function readClassFile(f: RandomAccessFile): { header: string; pool: PoolEntry[] } {
  f.seek(4);
  const minor = f.readUnsignedShort();
  const major = f.readUnsignedShort();
  const count = f.readUnsignedShort();
  const utf = new Map<number, string>();
  const raw: { index: number; tag: number; refs: number[]; text?: string }[] = [];
  for (let i = 1; i < count; i++) {
    const tag = f.readUnsignedByte();
    const entry: { index: number; tag: number; refs: number[]; text?: string } = {
      index: i,
      tag,
      refs: [],
    };
    switch (tag) {
      case 1:
        entry.text = f.readUTF();
        utf.set(i, entry.text);
        break;
      case 3:
        entry.text = String(f.readInt());
        break;
      case 4:
        entry.text = String(f.readFloat());
        break;
      case 5:
        entry.text = `${f.readLong()}L`;
        i++;
        break;
      case 6:
        entry.text = String(f.readDouble());
        i++;
        break;
      case 7:
      case 8:
      case 16:
      case 19:
      case 20:
        entry.refs.push(f.readUnsignedShort());
        break;
      case 9:
      case 10:
      case 11:
      case 12:
      case 17:
      case 18:
        entry.refs.push(f.readUnsignedShort(), f.readUnsignedShort());
        break;
      case 15:
        entry.refs.push(f.readUnsignedByte(), f.readUnsignedShort());
        break;
      default:
        throw new Error(`unknown constant-pool tag ${tag} at entry ${i}`);
    }
    raw.push(entry);
  }
  const byIndex = new Map(raw.map((e) => [e.index, e]));
  const name = (index: number): string => {
    const e = byIndex.get(index);
    if (e === undefined) return `#${index}`;
    if (e.tag === 1) return e.text!;
    return e.refs.map((r) => name(r)).join(e.tag === 12 ? ":" : ".");
  };
  f.readUnsignedShort(); // access flags
  const thisClass = name(f.readUnsignedShort());
  const superIndex = f.readUnsignedShort();
  const header = `class ${thisClass} extends ${superIndex === 0 ? "(none)" : name(superIndex)} · version ${major}.${minor} (Java ${major - 44}) · ${count - 1} constant-pool slots`;
  const pool = raw.map((e) => ({
    index: e.index,
    tag: TAGS[e.tag] ?? String(e.tag),
    text:
      e.text ??
      e.refs
        .map((r) => (e.tag === 15 && r === e.refs[0] ? `kind ${r}` : `#${r} ${name(r)}`))
        .join(", "),
  }));
  return { header, pool };
}
