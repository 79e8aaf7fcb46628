// Runs npm @echecs/elo on cases read from stdin and prints its answers.
//
// Usage: node elo_fide_driver.mjs <path to @echecs/elo/dist/index.js> < cases.json
// Input: a JSON array of
//   ["update", a, b, result, options]  -> [newA, newB]   (options null: update(a, b, result))
//   ["kFactor", options]               -> K
//   ["expected", a, b]                 -> expected(a, b)
// Options are passed exactly as given; a key that is absent is undefined for the library.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const elo = await import(pathToFileURL(resolve(process.argv[2])).href);
const cases = JSON.parse(readFileSync(0, "utf8"));
const out = cases.map(([kind, ...args]) => {
  if (kind === "update") {
    const [a, b, result, options] = args;
    return elo.update(a, b, options === null ? result : { result, ...options });
  }
  if (kind === "kFactor") return elo.kFactor(args[0]);
  if (kind === "expected") return elo.expected(args[0], args[1]);
  throw new Error(`unknown case kind ${kind}`);
});
process.stdout.write(JSON.stringify(out));
