import { Command, CommanderError, Option } from "commander";
import { keyId } from "./bytes";
import { addBenchCommand } from "./cli-bench";
import { colorsFor } from "./cli-colors";
import {
  backupLocked,
  bytes,
  compactionSummary,
  EXIT,
  noteKeptAside,
  plural,
  readAll,
  repairSummary,
  report,
  warnRecovery,
  withStore,
} from "./cli-util";
import { KvError, KvLockedError } from "./errors";
import type { SyncMode } from "./options";
import { OutputSink, type SinkStream } from "./output-sink";
import { progressBar } from "./progress";
import { MAX_VALUE_LENGTH } from "./record";
import type { Store } from "./store";
import {
  decodeText,
  encodeText,
  escapeControls,
  TEXT_ENCODINGS,
  type TextEncoding,
} from "./text-encoding";
import { checkKeyLength } from "./writes";

export { EXIT };

/** Where the CLI writes; injectable for tests. */
export interface CliIo {
  readonly stdout: SinkStream & { isTTY?: boolean };
  readonly stderr: NodeJS.WriteStream;
  readonly stdin: NodeJS.ReadableStream;
  /** The most bytes `put` reads from stdin (default: the store's value limit, 1 GiB); lower in tests. */
  readonly valueLimit?: number;
}

const HELP_USAGE = "<dir> <command> [args]";
const COMMANDS = [
  "put",
  "get",
  "del",
  "delete",
  "scan",
  "compact",
  "stats",
  "verify",
  "backup",
  "bench",
];

/**
 * Runs `rafkv` with `args` (without `node` and the script) and resolves to the exit code.
 * The first argument is the store directory; the command follows it: `rafkv ./db put k v`.
 */
export async function runCli(args: readonly string[], io: CliIo = process): Promise<number> {
  const err = (msg: string) => io.stderr.write(`${msg}\n`);
  // The reader of stdout may go away (`| head`): stop writing quietly. stderr's errors cannot be reported anywhere.
  const sink = new OutputSink(io.stdout);
  io.stderr.on("error", () => undefined);
  const out = await colorsFor(io.stdout);
  const pc = await colorsFor(io.stderr);
  let code: number = EXIT.ok;
  const first = args[0];
  // `rafkv help put` and `rafkv put --help` ask for a command's help, without a store directory.
  const asksHelp =
    first === "help" ||
    (first !== undefined &&
      COMMANDS.includes(first) &&
      args.some((a) => a === "--help" || a === "-h"));
  const dir = first === undefined || first.startsWith("-") || asksHelp ? undefined : first;
  const rest = dir === undefined ? [...args] : args.slice(1);
  if (dir !== undefined && rest.length === 0) {
    err(`rafkv: missing command after ${dir} (try rafkv --help)`);
    return EXIT.usage;
  }

  const program = new Command("rafkv")
    .usage(HELP_USAGE)
    .description("rafkv: an embedded, crash-safe key-value store (Bitcask design) built on rafkit")
    .version("0.0.0")
    .exitOverride()
    .configureOutput({ writeOut: (s) => void sink.write(s), writeErr: (s) => io.stderr.write(s) })
    .showHelpAfterError("(rafkv --help for usage)")
    // Every usage line says where the store directory goes: `rafkv <dir> put [options] <key> [value]`.
    .configureHelp({
      commandUsage: (cmd) =>
        cmd.parent ? `rafkv <dir> ${cmd.name()} ${cmd.usage()}` : `rafkv ${cmd.usage()}`,
    })
    .addHelpText(
      "after",
      `
Examples:
  rafkv ./db put greeting hello        store a value (creates ./db if its parent exists)
  cat photo.jpg | rafkv ./db put photo -   store stdin as the value
  rafkv ./db get greeting              print a value (raw bytes)
  rafkv ./db get photo --encoding hex  print a value as hex
  rafkv ./db scan user:                list keys starting with "user:"
  rafkv ./db scan --json -e base64     every key and value as JSON lines, binary-safe
  rafkv ./db get 00ff --key-encoding hex   a binary key, as scan -e hex prints it
  rafkv ./db del AP8= --key-encoding base64  the same key, as scan -e base64 prints it
  rafkv ./db verify                    check every record's CRC
  rafkv ./db backup ./db-copy          a consistent copy (not while a writer has ./db open)
  rafkv /tmp/scratch bench             YCSB-like benchmark vs lmdb and classic-level

Exit codes: 0 ok, 1 key not found, 2 bad usage or no store, 3 locked, 4 corrupt, 5 other error.`,
    );
  const needDir = (): string => {
    if (dir === undefined)
      throw new KvError("ERR_KV_INVALID_ARG", "missing store directory: rafkv <dir> <command>");
    return dir;
  };
  // Every command opens through here, so that what the open kept aside is noted whatever the command.
  const withDb = <T>(options: Parameters<typeof withStore>[1], body: (db: Store) => Promise<T>) =>
    withStore(needDir(), options, async (db) => {
      noteKeptAside(db, err, pc);
      return body(db);
    });
  const encodingOption = (description: string) =>
    new Option("-e, --encoding <encoding>", description).choices(TEXT_ENCODINGS);
  const keyEncodingOption = (what = "KEY") =>
    new Option(
      "--key-encoding <encoding>",
      `how ${what} is spelled: utf8, or hex or base64 (binary keys, as scan -e prints them)`,
    )
      .choices(TEXT_ENCODINGS)
      .default("utf8");
  const syncOption = () =>
    new Option("--sync <mode>", "when to fsync")
      .choices(["always", "batch", "never"])
      .default("always");

  program
    .command("put")
    .description("store VALUE under KEY; VALUE '-' or no VALUE reads stdin (binary-safe)")
    .argument("<key>")
    .argument("[value]")
    .addOption(syncOption())
    .addOption(keyEncodingOption())
    .action(
      async (
        key: string,
        value: string | undefined,
        opts: { sync: SyncMode; keyEncoding: TextEncoding },
      ) => {
        // Before stdin is read and the store is opened (or made): a bad key fails at once and changes nothing.
        const k = decodeText(key, opts.keyEncoding, "key");
        checkKeyLength(keyId(k));
        const limit = io.valueLimit ?? MAX_VALUE_LENGTH;
        const bytes = value === undefined || value === "-" ? await readAll(io.stdin, limit) : value;
        await withDb({ sync: opts.sync, create: true }, (db) => db.put(k, bytes));
      },
    );

  program
    .command("get")
    .description(
      "print the value of KEY: raw bytes (a newline is added on a terminal), or with --encoding as a line of text",
    )
    .argument("<key>")
    .addOption(
      encodingOption(
        "print the value as a line of text: utf8 (invalid bytes become U+FFFD), or hex or base64 (exact); default: raw bytes",
      ),
    )
    .addOption(keyEncodingOption())
    .action(async (key: string, opts: { encoding?: TextEncoding; keyEncoding: TextEncoding }) => {
      const k = decodeText(key, opts.keyEncoding, "key");
      await withDb({ readOnly: true }, async (db) => {
        warnRecovery(db, err, pc);
        const value = await db.get(k);
        if (value === undefined) {
          err(`rafkv: key not found: ${escapeControls(key)}`);
          code = EXIT.notFound;
          return;
        }
        // A line of text: control characters escaped, as in scan.
        if (opts.encoding !== undefined)
          await sink.write(`${escapeControls(encodeText(value, opts.encoding))}\n`);
        else {
          await sink.write(value);
          if (io.stdout.isTTY) await sink.write("\n");
        }
      });
    });

  program
    .command("del")
    .alias("delete")
    .description("delete KEY")
    .argument("<key>")
    .addOption(syncOption())
    .addOption(keyEncodingOption())
    .action(async (key: string, opts: { sync: SyncMode; keyEncoding: TextEncoding }) => {
      const k = decodeText(key, opts.keyEncoding, "key");
      await withDb({ sync: opts.sync, create: false }, async (db) => {
        if (!(await db.delete(k))) {
          err(`rafkv: key not found: ${escapeControls(key)}`);
          code = EXIT.notFound;
        }
      });
    });

  program
    .command("scan")
    .description("list keys (and values) in byte order, optionally only those starting with PREFIX")
    .argument("[prefix]")
    .option("-k, --keys-only", "print keys only")
    .option("--json", 'print one JSON object per line: {"key": ..., "value": ...}')
    .addOption(
      encodingOption(
        "how to print keys and values: utf8 (invalid bytes become U+FFFD), or hex or base64 (exact, for binary data)",
      ).default("utf8"),
    )
    .addOption(keyEncodingOption("PREFIX"))
    .action(
      async (
        prefix: string | undefined,
        opts: {
          keysOnly?: boolean;
          json?: boolean;
          encoding: TextEncoding;
          keyEncoding: TextEncoding;
        },
      ) => {
        const options =
          prefix === undefined ? {} : { prefix: decodeText(prefix, opts.keyEncoding, "prefix") };
        await withDb({ readOnly: true }, async (db) => {
          warnRecovery(db, err, pc);
          const text = (bytes: Uint8Array, what: string) => encodeText(bytes, opts.encoding, what);
          // Human output: control characters escaped, so a tab or newline in a key or value cannot split the
          // `key<TAB>value` line (JSON escapes them itself).
          const human = (bytes: Uint8Array, what: string) => escapeControls(text(bytes, what));
          // Keys only: no value is read (a damaged one fails nothing, a large one takes no memory).
          if (opts.keysOnly) {
            for await (const k of db.keys(options)) {
              const line = opts.json
                ? `${JSON.stringify({ key: text(k, "key") })}\n`
                : `${human(k, "key")}\n`;
              if (!(await sink.write(line))) break; // the reader went away
            }
            return;
          }
          for await (const [k, v] of db.entries(options)) {
            const line = opts.json
              ? `${JSON.stringify({ key: text(k, "key"), value: text(v, "value") })}\n`
              : `${human(k, "key")}\t${human(v, "value")}\n`;
            if (!(await sink.write(line))) break; // the reader went away
          }
        });
      },
    );

  program
    .command("compact")
    .description("rewrite live records into new files and drop the old ones")
    .option("--repair", "drop corrupt records instead of refusing to write")
    .action(async (opts: { repair?: boolean }) => {
      await withDb({ create: false, repair: opts.repair ?? false }, async (db) => {
        const dropped = db.recovery.filter((r) => r.action === "skipped");
        if (dropped.length > 0 && db.stats().compactions > 0) {
          // The repair ran inside open: it dropped the damage and compacted; another compaction has nothing to do.
          await sink.write(`${repairSummary(dropped, db.stats())}\n`);
          return;
        }
        const bar = progressBar("compact", "records", io.stderr);
        try {
          const r = await db.compact({ onProgress: (done, total) => bar.update(done, total) });
          bar.stop();
          await sink.write(`${compactionSummary(r)}\n`);
        } finally {
          bar.stop();
        }
      });
    });

  program
    .command("stats")
    .description("keys, files, live and dead bytes")
    .option("--json", "print JSON")
    .action(async (opts: { json?: boolean }) => {
      await withDb({ readOnly: true }, async (db) => {
        const s = db.stats();
        if (opts.json) {
          await sink.write(`${JSON.stringify(s, null, 2)}\n`);
          return;
        }
        await sink.write(
          [
            `store      ${s.dir}`,
            `keys       ${s.keys}`,
            `files      ${s.files}`,
            `bytes      ${bytes(s.totalBytes)} (live ${bytes(s.liveBytes)}; old records, tombstones and sync points ${bytes(s.deadBytes)})`,
            `lock       ${s.lock === "os" ? "OS file lock" : "in-process only (this backend has no file locks)"}`,
            ...s.recovery.map(
              (r) =>
                `damage     ${r.file} at ${r.offset}: ${r.kind}, ${r.bytes} bytes (${r.action}${r.keptAs === undefined ? "" : `, kept as ${r.keptAs}`})`,
            ),
          ]
            .map((line) => `${line}\n`)
            .join(""),
        );
      });
    });

  program
    .command("verify")
    .description("read every file and check every record's CRC and every key's location")
    .action(async () => {
      await withDb({ readOnly: true }, async (db) => {
        const bar = progressBar("verify", "bytes", io.stderr);
        const r = await db.verify({ onProgress: (done, total) => bar.update(done, total) });
        bar.stop();
        for (const t of r.tornTails)
          err(`${pc.yellow("note")} ${t} (cut off by the next writable open)`);
        for (const k of r.keptAside)
          err(`${pc.yellow("note")} ${k}: kept aside by an earlier open (not part of the store)`);
        for (const p of r.problems) err(`${pc.red("problem")} ${p}`);
        await sink.write(
          `${r.ok ? out.green("ok") : out.red("FAILED")}: ${plural(r.files, "data file")}, ${plural(r.records, "record")}, ${bytes(r.bytes)}${r.ok ? "" : `, ${r.problems.length} problems`}\n`,
        );
        if (!r.ok) code = EXIT.corrupt;
      });
    });

  program
    .command("backup")
    .description(
      "copy the store into DEST (missing or empty): a consistent copy that opens with every acknowledged write",
    )
    .argument("<dest>")
    .addHelpText(
      "after",
      `
It opens the store read-only, so it cannot run while another process has the store open for writing (exit 3,
ERR_KV_LOCKED). A program that keeps a store open copies it online with the library's backup(dest):
  await db.backup("./db-copy");`,
    )
    .action(async (dest: string) => {
      const dir = needDir();
      try {
        await withDb({ readOnly: true }, async (db) => {
          const r = await db.backup(dest);
          await sink.write(
            `backed up ${plural(r.files, "data file")} (${bytes(r.bytes)}) to ${r.dir}\n`,
          );
        });
      } catch (error) {
        throw error instanceof KvLockedError ? backupLocked(dir, error) : error;
      }
    });

  addBenchCommand(program, needDir, sink, io.stderr);

  try {
    await program.parseAsync(rest, { from: "user" });
    await sink.flush();
    if (sink.error) return report(sink.error, err);
    return code;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    return report(error, err);
  }
}
