// The second page of the two-page lock case: the browser build on `window.rafkit`, nothing run.
import * as rafkit from "@rafkit/raf";

Object.assign(window, { rafkit });
