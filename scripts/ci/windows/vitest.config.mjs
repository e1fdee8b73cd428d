// vitest under Wine's node.exe: threads, not forks (child-process pipes fail under Wine), no coverage.
export default {
  test: {
    include: ["test/**/*.test.ts"],
    pool: "threads",
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
};
