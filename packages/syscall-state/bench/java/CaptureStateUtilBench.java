import java.io.File;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.nio.file.Files;
import jdk.internal.foreign.CaptureStateUtil;

/**
 * The JDK side of @rafkit/syscall-state's CaptureStateUtilBench (JDK-8347408), on JDK 25: fcntl(fd, F_GETFD)
 * through the FFM Linker, the libc call the Node suite makes. `tl*` call the handle adapted by
 * jdk.internal.foreign.CaptureStateUtil.adaptSystemCall (its thread-local capture segment; result or -errno);
 * `explicit*` allocate the capture segment in a confined arena per call, as the review's "explicit" case, and read
 * errno on failure; `raw*` call the plain downcall, errno unread. Success is an fd open here; failure is fd -1
 * (EBADF). Needs --add-exports java.base/jdk.internal.foreign=ALL-UNNAMED (javac and java).
 *
 * Usage: java CaptureStateUtilBench.java BENCHMARK F_GETFD WARMUPS WARMUP_LENGTH ITERATIONS ITERATION_LENGTH
 *   BENCHMARK: explicitSuccess explicitFail tlSuccess tlFail rawSuccess rawFail
 *   LENGTH:    200ms (a time) or 1000ops (a count of operations)
 * Output: the same JSON lines as RafBench (one runtime line, one line per iteration).
 */
public final class CaptureStateUtilBench {
    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CAPTURE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO =
            CAPTURE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    // int fcntl(int fd, int cmd, ...): the third argument is variadic.
    private static final FunctionDescriptor FCNTL = FunctionDescriptor.of(
            ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT);
    private static final MemorySegment FCNTL_ADDRESS = LINKER.defaultLookup().find("fcntl").orElseThrow();
    private static final MethodHandle HANDLE = LINKER.downcallHandle(
            FCNTL_ADDRESS, FCNTL, Linker.Option.captureCallState("errno"), Linker.Option.firstVariadicArg(2));
    private static final MethodHandle ADAPTED = CaptureStateUtil.adaptSystemCall(HANDLE, "errno");
    private static final MethodHandle RAW = LINKER.downcallHandle(FCNTL_ADDRESS, FCNTL, Linker.Option.firstVariadicArg(2));

    static long sink;
    static int fd;
    static int getfd;

    static int explicit(int target) throws Throwable {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CAPTURE);
            int r = (int) HANDLE.invokeExact(state, target, getfd, 0);
            return r < 0 ? -(int) ERRNO.get(state, 0L) : r;
        }
    }

    static int call(String benchmark) throws Throwable {
        return switch (benchmark) {
            case "explicitSuccess" -> explicit(fd);
            case "explicitFail" -> explicit(-1);
            case "tlSuccess" -> (int) ADAPTED.invokeExact(fd, getfd, 0);
            case "tlFail" -> (int) ADAPTED.invokeExact(-1, getfd, 0);
            case "rawSuccess" -> (int) RAW.invokeExact(fd, getfd, 0);
            case "rawFail" -> (int) RAW.invokeExact(-1, getfd, 0);
            default -> throw new IllegalArgumentException("benchmark: " + benchmark);
        };
    }

    /** A batch of `n` calls of one benchmark; each benchmark its own loop, so every call site sees one handle. */
    static void batch(String benchmark, long n) throws Throwable {
        switch (benchmark) {
            case "explicitSuccess" -> { for (long k = 0; k < n; k++) sink += explicit(fd); }
            case "explicitFail" -> { for (long k = 0; k < n; k++) sink += explicit(-1); }
            case "tlSuccess" -> { for (long k = 0; k < n; k++) sink += (int) ADAPTED.invokeExact(fd, getfd, 0); }
            case "tlFail" -> { for (long k = 0; k < n; k++) sink += (int) ADAPTED.invokeExact(-1, getfd, 0); }
            case "rawSuccess" -> { for (long k = 0; k < n; k++) sink += (int) RAW.invokeExact(fd, getfd, 0); }
            case "rawFail" -> { for (long k = 0; k < n; k++) sink += (int) RAW.invokeExact(-1, getfd, 0); }
            default -> throw new IllegalArgumentException("benchmark: " + benchmark);
        }
    }

    static String json(String s) { return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\""; }

    /** An iteration length: a time budget in nanoseconds, or a fixed count of operations. */
    record Length(long nanos, long ops) {
        static Length parse(String text) {
            if (text.endsWith("ops")) return new Length(0, Long.parseLong(text.substring(0, text.length() - 3)));
            if (text.endsWith("ms")) return new Length(Math.round(Double.parseDouble(text.substring(0, text.length() - 2)) * 1e6), 0);
            throw new IllegalArgumentException("iteration length must look like 200ms or 1000ops: " + text);
        }
    }

    public static void main(String[] args) throws Throwable {
        if (args.length != 6) {
            System.err.println("usage: java CaptureStateUtilBench.java BENCHMARK F_GETFD WARMUPS 100ms|1000ops ITERATIONS 100ms|1000ops");
            System.exit(2);
        }
        String benchmark = args[0];
        getfd = Integer.parseInt(args[1]);
        int warmups = Integer.parseInt(args[2]);
        Length warmupLength = Length.parse(args[3]);
        int iterations = Integer.parseInt(args[4]);
        Length iterationLength = Length.parse(args[5]);
        File file = File.createTempFile("rafkit-jdk-capture", ".bin");
        Files.write(file.toPath(), new byte[16]);
        // An fd of this process, opened through libc as the Node suite's is (open(path, O_RDONLY)).
        MethodHandle open = LINKER.downcallHandle(LINKER.defaultLookup().find("open").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT));
        try (Arena arena = Arena.ofConfined()) {
            fd = (int) open.invokeExact(arena.allocateFrom(file.getPath()), 0);
        }
        if (fd < 0) throw new IllegalStateException("open " + file + " failed");
        if (call(benchmark.replace("Fail", "Success")) < 0 || call(benchmark.replace("Success", "Fail")) >= 0 && !benchmark.startsWith("raw"))
            throw new IllegalStateException("fcntl does not behave as the benchmark assumes");

        System.out.println("{\"runtime\":{\"jvm\":" + json(System.getProperty("java.home") + File.separator + "bin" + File.separator + "java")
                + ",\"jdkVersion\":" + json(System.getProperty("java.version"))
                + ",\"vmName\":" + json(System.getProperty("java.vm.name"))
                + ",\"vmVersion\":" + json(System.getProperty("java.vm.version")) + "}}");
        // Untimed JIT warm-up before the harness's warmup iterations: C2 compiles the method-handle chain of
        // an adapted downcall seconds later than V8 optimizes a koffi call, and the harness's short warmups
        // would otherwise measure the JDK half-compiled (-Drafkit.jitWarmupMs=0 turns it off).
        long jitWarmup = Long.getLong("rafkit.jitWarmupMs", 3000) * 1_000_000L;
        for (long t0 = System.nanoTime(); System.nanoTime() - t0 < jitWarmup; ) batch(benchmark, 1024);
        for (int i = 0; i < warmups + iterations; i++) {
            boolean warmup = i < warmups;
            Length length = warmup ? warmupLength : iterationLength;
            long ops = 0;
            long start = System.nanoTime();
            long elapsed;
            // Batches of 1024 calls between clock reads: a nanoTime per call would cost as much as the call.
            do {
                long n = length.ops() > 0 ? Math.min(1024, length.ops() - ops) : 1024;
                batch(benchmark, n);
                ops += n;
                elapsed = System.nanoTime() - start;
            } while (length.ops() > 0 ? ops < length.ops() : elapsed < length.nanos());
            System.out.println("{\"warmup\":" + warmup + ",\"ops\":" + ops + ",\"nanos\":" + elapsed + "}");
        }
        file.delete();
        if (sink == 42) System.err.println("sink " + sink);
    }
}
