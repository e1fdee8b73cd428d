import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.util.Random;

/**
 * The JDK side of @rafkit/raf's suites: the JDK reviews' RandomAccessFileBenchmark (JDK-8298639) and
 * RandomAccessFileReadBenchmark (JDK-8292937). One `java` process is one fork. It prints one JSON line describing
 * the runtime, then one JSON line per iteration ({"warmup":..,"ops":..,"nanos":..}); the Node harness does the
 * statistics, so Java and Node numbers go through the same code.
 *
 * Usage: java RafBench.java BENCHMARK OP KILOBYTES VARIANT WARMUPS WARMUP_LENGTH ITERATIONS ITERATION_LENGTH [DIR]
 *   BENCHMARK: RandomAccessFileBenchmark: per iteration a fresh file of random bytes opened "rw" and read once
 *              with readInt (warm page cache); one op is seek(0) then kiloBytes * 1024 / N reads or writes.
 *              RandomAccessFileReadBenchmark: one op opens the file "r", reads it whole as N-byte primitives
 *              and closes it; open and close are inside the measurement.
 *   OP:        readShort readInt readLong (and, for RandomAccessFileBenchmark, writeShort writeInt writeLong)
 *   VARIANT:   stock    (java.io.RandomAccessFile as this JDK ships it: byte by byte on JDK 17, bulk since 21)
 *              emulated (one readFully/write of N bytes per primitive plus a decode: the reviews' patch, for
 *                        machines without a JDK 21+)
 *   LENGTH:    200ms (a time) or 1000ops (a count of operations)
 *   DIR:       where the iteration files go (default: java.io.tmpdir)
 */
public final class RafBench {
    private static final VarHandle SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    /** DataInput/DataOutput primitives, as the benchmark uses them. */
    interface Primitives {
        short readShort() throws IOException;
        int readInt() throws IOException;
        long readLong() throws IOException;
        void writeShort(short v) throws IOException;
        void writeInt(int v) throws IOException;
        void writeLong(long v) throws IOException;
    }

    static final class Stock implements Primitives {
        private final RandomAccessFile raf;
        Stock(RandomAccessFile raf) { this.raf = raf; }
        public short readShort() throws IOException { return raf.readShort(); }
        public int readInt() throws IOException { return raf.readInt(); }
        public long readLong() throws IOException { return raf.readLong(); }
        public void writeShort(short v) throws IOException { raf.writeShort(v); }
        public void writeInt(int v) throws IOException { raf.writeInt(v); }
        public void writeLong(long v) throws IOException { raf.writeLong(v); }
    }

    /** One system call per primitive, as RandomAccessFile does since JDK-8292937 and JDK-8298639 (JDK 21+). */
    static final class Bulk implements Primitives {
        private final RandomAccessFile raf;
        private final byte[] buf = new byte[8];
        Bulk(RandomAccessFile raf) { this.raf = raf; }
        public short readShort() throws IOException { raf.readFully(buf, 0, 2); return (short) SHORT.get(buf, 0); }
        public int readInt() throws IOException { raf.readFully(buf, 0, 4); return (int) INT.get(buf, 0); }
        public long readLong() throws IOException { raf.readFully(buf, 0, 8); return (long) LONG.get(buf, 0); }
        public void writeShort(short v) throws IOException { SHORT.set(buf, 0, v); raf.write(buf, 0, 2); }
        public void writeInt(int v) throws IOException { INT.set(buf, 0, v); raf.write(buf, 0, 4); }
        public void writeLong(long v) throws IOException { LONG.set(buf, 0, v); raf.write(buf, 0, 8); }
    }

    /** An iteration length: a time budget in nanoseconds, or a fixed count of operations. */
    record Length(long nanos, long ops) {
        static Length parse(String text) {
            if (text.endsWith("ops")) return new Length(0, Long.parseLong(text.substring(0, text.length() - 3)));
            if (text.endsWith("ms")) return new Length(Math.round(Double.parseDouble(text.substring(0, text.length() - 2)) * 1e6), 0);
            throw new IllegalArgumentException("iteration length must look like 200ms or 1000ops: " + text);
        }
        boolean done(long ops, long elapsed) { return this.ops > 0 ? ops >= this.ops : elapsed >= nanos; }
    }

    /** Consumed values end here; printed at exit so the JIT cannot drop the reads. */
    static long sink;

    /** One benchmark operation: seek(0), then size/N primitive reads or writes. */
    static void operation(String op, RandomAccessFile raf, Primitives p, int size, short[] shorts, int[] ints, long[] longs)
            throws IOException {
        raf.seek(0);
        switch (op) {
            case "readShort" -> { for (int k = 0; k < size / 2; k++) sink += p.readShort(); }
            case "readInt" -> { for (int k = 0; k < size / 4; k++) sink += p.readInt(); }
            case "readLong" -> { for (int k = 0; k < size / 8; k++) sink += p.readLong(); }
            case "writeShort" -> { for (int k = 0; k < size / 2; k++) p.writeShort(shorts[k]); }
            case "writeInt" -> { for (int k = 0; k < size / 4; k++) p.writeInt(ints[k]); }
            case "writeLong" -> { for (int k = 0; k < size / 8; k++) p.writeLong(longs[k]); }
            default -> throw new IllegalArgumentException("op: " + op);
        }
    }

    /** One RandomAccessFileReadBenchmark operation: open "r", read the whole file as N-byte primitives, close. */
    static void openReadClose(String op, File file, boolean stock, int size) throws IOException {
        try (RandomAccessFile raf = new RandomAccessFile(file, "r")) {
            Primitives p = stock ? new Stock(raf) : new Bulk(raf);
            switch (op) {
                case "readShort" -> { for (int k = 0; k < size / 2; k++) sink += p.readShort(); }
                case "readInt" -> { for (int k = 0; k < size / 4; k++) sink += p.readInt(); }
                case "readLong" -> { for (int k = 0; k < size / 8; k++) sink += p.readLong(); }
                default -> throw new IllegalArgumentException("op: " + op);
            }
        }
    }

    static String json(String s) { return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\""; }

    public static void main(String[] args) throws Exception {
        if (args.length != 8 && args.length != 9) {
            System.err.println("usage: java RafBench.java BENCHMARK OP KILOBYTES stock|emulated WARMUPS 100ms|1000ops ITERATIONS 100ms|1000ops [DIR]");
            System.exit(2);
        }
        String benchmark = args[0];
        String op = args[1];
        int size = Integer.parseInt(args[2]) << 10;
        String variant = args[3];
        int warmups = Integer.parseInt(args[4]);
        Length warmupLength = Length.parse(args[5]);
        int iterations = Integer.parseInt(args[6]);
        Length iterationLength = Length.parse(args[7]);
        File dir = new File(args.length == 9 ? args[8] : System.getProperty("java.io.tmpdir"));
        boolean openReadClose = benchmark.equals("RandomAccessFileReadBenchmark");
        if (!openReadClose && !benchmark.equals("RandomAccessFileBenchmark")) throw new IllegalArgumentException("benchmark: " + benchmark);
        if (!variant.equals("stock") && !variant.equals("emulated")) throw new IllegalArgumentException("variant: " + variant);
        if (!op.matches(openReadClose ? "read(Short|Int|Long)" : "(read|write)(Short|Int|Long)")) throw new IllegalArgumentException("op: " + op);
        boolean stock = variant.equals("stock");

        System.out.println("{\"runtime\":{\"jvm\":" + json(System.getProperty("java.home") + File.separator + "bin" + File.separator + "java")
                + ",\"jdkVersion\":" + json(System.getProperty("java.version"))
                + ",\"vmName\":" + json(System.getProperty("java.vm.name"))
                + ",\"vmVersion\":" + json(System.getProperty("java.vm.version")) + "}}");

        Random rnd = new Random();
        // Untimed JIT warm-up on a file of its own before the harness's warmup iterations, so that short
        // warmups do not measure the JDK half-compiled (-Drafkit.jitWarmupMs=0 turns it off).
        long jitWarmup = Long.getLong("rafkit.jitWarmupMs", 1000) * 1_000_000L;
        if (jitWarmup > 0) {
            File file = File.createTempFile("rafkit-jdk-bench-jit", ".bin", dir);
            try {
                Files.write(file.toPath(), new byte[size]);
                try (RandomAccessFile raf = new RandomAccessFile(file, openReadClose ? "r" : "rw")) {
                    Primitives p = stock ? new Stock(raf) : new Bulk(raf);
                    short[] shorts = new short[size / 2];
                    int[] ints = new int[size / 4];
                    long[] longs = new long[size / 8];
                    for (long t0 = System.nanoTime(); System.nanoTime() - t0 < jitWarmup; ) {
                        if (openReadClose) openReadClose(op, file, stock, size);
                        else operation(op, raf, p, size, shorts, ints, longs);
                    }
                }
            } finally {
                file.delete();
            }
        }
        for (int i = 0; i < warmups + iterations; i++) {
            boolean warmup = i < warmups;
            Length length = warmup ? warmupLength : iterationLength;
            // Level.Iteration setup, untimed: a fresh file of random bytes, values to write, a warm page cache.
            byte[] bytes = new byte[size];
            rnd.nextBytes(bytes);
            File file = File.createTempFile("rafkit-jdk-bench", ".bin", dir);
            Files.write(file.toPath(), bytes);
            short[] shorts = new short[size / 2];
            for (int k = 0; k < shorts.length; k++) shorts[k] = (short) rnd.nextInt();
            int[] ints = rnd.ints(size / 4).toArray();
            long[] longs = rnd.longs(size / 8).toArray();
            try (RandomAccessFile raf = new RandomAccessFile(file, openReadClose ? "r" : "rw")) {
                // As the JDK benchmark's setup: the whole file read through readInt (the page cache warm, and the
                // read path run); RandomAccessFileReadBenchmark's setup reads nothing through it.
                if (!openReadClose) for (int k = 0; k < size / 4; k++) sink += raf.readInt();
                Primitives p = stock ? new Stock(raf) : new Bulk(raf);
                long ops = 0;
                long start = System.nanoTime();
                long elapsed;
                do {
                    if (openReadClose) openReadClose(op, file, stock, size);
                    else operation(op, raf, p, size, shorts, ints, longs);
                    ops++;
                    elapsed = System.nanoTime() - start;
                } while (!length.done(ops, elapsed));
                System.out.println("{\"warmup\":" + warmup + ",\"ops\":" + ops + ",\"nanos\":" + elapsed + "}");
            } finally {
                file.delete();
            }
        }
        if (sink == 42) System.err.println("sink " + sink); // keeps the reads observable
    }
}
