// A second process opening a rafkv store for writing: prints "opened" (then puts `key` and closes) or the error's code.
import { open } from "@rafkit/kv-example";

const [dir, key] = process.argv.slice(-2);
try {
  const db = await open(dir);
  await db.put(key, "from the child");
  await db.close();
  console.log("opened");
} catch (e) {
  console.log(e.code ?? String(e));
}
