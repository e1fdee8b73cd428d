// The Store's suites, one module per idea under store/, all run from this one file: the Windows suite
// (scripts/ci/windows.sh) bundles and runs apps/kv/test/store.test.ts by name, so every one of them runs there too.
import "./store/basic-api";
import "./store/sync-modes";
import "./store/recovery";
import "./store/compaction";
import "./store/locking";
