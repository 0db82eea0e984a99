// The node-redlock side of sim/library's differential test: one lock on
// one node or several, its value fixed, each line read from the test ("take", then
// the operation) answered with one line. No retries: the model's
// operation is one try (its Tries say how many the library makes).
"use strict";
const readline = require("readline");
const Redis = require("ioredis");
const Redlock = require("redlock");

// the nodes as host:port, comma-separated: one client each (Redlock)
const [addrs, key, value, ttl] = process.argv.slice(2);
const clients = addrs.split(",").map((a) => {
  const [host, port] = a.split(":");
  return new Redis({ host, port: Number(port), lazyConnect: false });
});
const redlock = new Redlock(clients, { retryCount: 0 });
redlock._random = () => value;
let lock = null;

async function act(op) {
  try {
    if (op === "take" || op === "acquire") {
      lock = await redlock.lock(key, Number(ttl));
    } else if (op === "extend") {
      lock = await lock.extend(Number(ttl));
    } else if (op === "release") {
      await lock.unlock();
    }
    return "ok";
  } catch (e) {
    if (!(e instanceof Redlock.LockError)) { return "error: " + e.message; }
    return op === "take" || op === "acquire" ? "taken" : "notheld";
  }
}

const rl = readline.createInterface({ input: process.stdin });
rl.on("line", async (line) => {
  process.stdout.write((await act(line.trim())) + "\n");
});
rl.on("close", () => clients.forEach((c) => c.disconnect()));
