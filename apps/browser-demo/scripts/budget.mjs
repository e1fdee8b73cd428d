// The browser size budget of raf + bits + the OPFS backend, gzipped (see the README's "In the browser").
// Measured 20,153 bytes gzipped (72,222 minified) when set at 22,528. Raised to 23 KiB on 2026-12-02 for raf's
// window pool and its guards against re-entrant closes (+277 bytes: 22,386 -> 22,663 gzipped, 79,964 minified).
// Raised to 24 KiB on 2026-12-03 for the async primitives' hot paths written out in each method (+297 bytes:
// 23,415 -> 23,712 gzipped, 85,206 minified), which brought async reads to the await floor (raf's BENCHMARKS.md).
// Raised to 25 KiB on 2026-12-04 for the browser's behaviour fixes of that day: locks before close, releases seen
// in their own context, Node's file: URL refusals, paths ending in "/", a Blob's checks before it is kept (+280
// bytes: 24,333 -> 24,613 gzipped, 88,051 minified), then raf's argument type checks (+428: 25,041, 89,730) and their review's mends (+176: 25,217, 90,471), and the sync class's ENOSYS at open on a main thread (+207: 25,424,
// 90,967), then plain views of typed-array subclasses in raf and syscall-state (+150: 25,574, 91,689: 26 bytes left).
// Lowered to 24.5 KiB on 2026-12-04: bits' bulk swaps write through a DataView and raf's readUTF/writeUTF
// length through bytes, so neither byte codec (BigEndian, LittleEndian) is bundled (-1,418: 25,647 -> 24,229
// gzipped, 91,857 -> 82,407 minified, with readLongAsNumber's own error message in). Then the same day's
// Windows lock fixes (syscall-state's fileIdentity, +86) and small misaligned swaps by bytes (+147): 24,462, 83,067.
// Raised to 24.75 KiB on 2026-12-05 (25,144 gzipped, 85,837 minified): the async class counts its system calls in
// flight (a worker's exit leaves such a file open), checks at a call's turn that the caller's buffer still holds its
// range (a resizable one may shrink meanwhile), and rebuilds arrays whose own length, byteOffset or buffer lies.
// Raised to 25 KiB on 2026-12-05 (25,361 gzipped, 86,434 minified): a granted Web Lock forgets the window's bytes
// (lost updates otherwise), a refused OPFS open removes the directories it made, the browser open's argument checks
// come first (typed errors), and Node's message for each refused file: URL.
export const GZIP_BUDGET = 25_600;
