// The demo page: takes a dropped or picked file, hands it to the inspector worker, and shows its answers.
// Nothing here reads the file, so the page stays responsive on a file of any size (see the tick counter).
import type { Reply, Request } from "./protocol";

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const worker = new Worker(new URL("./inspect.worker.ts", import.meta.url), { type: "module" });
const send = (request: Request) => worker.postMessage(request);

const drop = $<HTMLLabelElement>("drop");
const input = $<HTMLInputElement>("file");
const offset = $<HTMLInputElement>("offset");
const kind = $<HTMLSelectElement>("kind");
const order = $<HTMLSelectElement>("order");

const mib = (n: number) => (n >= 1 << 20 ? `${(n / (1 << 20)).toFixed(1)} MiB` : `${n} bytes`);

function look(): void {
  send({
    type: "look",
    offset: Math.max(0, Number(offset.value) || 0),
    kind: kind.value,
    order: order.value as "big" | "little",
  });
}

function open(file: File | undefined): void {
  if (file === undefined) return;
  $("class").hidden = true;
  $("scan").textContent = "scanning…";
  send({ type: "open", file });
}

worker.onmessage = ({ data }: MessageEvent<Reply>) => {
  switch (data.type) {
    case "opened":
      $("name").textContent = data.name;
      $("size").textContent = mib(data.size);
      $("summary").hidden = false;
      $("inspect").hidden = false;
      look();
      break;
    case "looked":
      $("typed").textContent = data.value;
      $("hex").textContent = data.hex;
      break;
    case "class": {
      $("header").textContent = data.header;
      const pool = $("pool");
      pool.replaceChildren(
        ...data.pool.map((e) => {
          const li = document.createElement("li");
          li.value = e.index;
          li.textContent = `${e.tag} ${e.text}`;
          return li;
        }),
      );
      $("class").hidden = false;
      break;
    }
    case "scan":
      $("scan").textContent =
        data.done < data.size
          ? `scanning… ${Math.floor((100 * data.done) / data.size)}%`
          : `scanned: ${data.newlines} newlines, ${data.zeros} zero bytes`;
      break;
    case "error":
      $("typed").textContent = data.message;
  }
};

input.addEventListener("change", () => open(input.files?.[0]));
drop.addEventListener("dragover", (e) => {
  e.preventDefault();
  drop.classList.add("over");
});
drop.addEventListener("dragleave", () => drop.classList.remove("over"));
drop.addEventListener("drop", (e) => {
  e.preventDefault();
  drop.classList.remove("over");
  open(e.dataTransfer?.files[0]);
});
for (const control of [offset, kind, order]) control.addEventListener("input", look);

// The main thread's heartbeat: it keeps counting while the worker reads.
let ticks = 0;
const tick = () => {
  $("ticks").textContent = String(++ticks);
  requestAnimationFrame(tick);
};
requestAnimationFrame(tick);
