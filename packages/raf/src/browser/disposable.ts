// The browser types name `Symbol.dispose` and `Symbol.asyncDispose`. A project whose lib predates them (ES2022,
// say) gets them here, as a Node project gets them from @types/node; with a newer lib the two declarations merge.
declare global {
  interface SymbolConstructor {
    readonly dispose: unique symbol;
    readonly asyncDispose: unique symbol;
  }
}

export {};
