/**
 * @internal Keys of the hooks the browser entry's subclasses use: symbols, so they stay off the public
 * surface both classes share.
 */

/** @internal Runs a job in an async instance's call order (the browser's Web Locks take their turn there). */
export const IN_TURN: unique symbol = Symbol("rafkit.inTurn");

/**
 * @internal Forgets the window's clean bytes, as a lock taken on Node does: the previous holder of a Web Lock
 * may have changed them.
 */
export const FORGET_CACHED: unique symbol = Symbol("rafkit.forgetCached");
