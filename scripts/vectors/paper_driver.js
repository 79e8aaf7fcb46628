// Runs npm preferans-score-js 1.5.4 (with its preferans-paper-js 3.1.3) on deal logs read from
// stdin and prints the paper it keeps for each.
//
// Usage: node paper_driver.js <path to node_modules> < logs.json
// Input: a JSON array of deal logs in the format of `manage.py paper_from_deals`:
//   {"bula": 30, "refas": 2 | null, "hands": [{"refa": true}, {"value": 4,
//    "declarer": {"seat": 1, "failed": false}, "followers": [{"seat": 2, "followed": true,
//    "tricks": 2, "failed": false}, {...}], "repealed": false}, ...]}
// Output: a JSON array, one answer per log, in order:
//   {"json": score.json, "mini": score.mini}, or {"error": "hand N: <the library's message>"}
//   (N is 1-based over all hands, refe included; 0 for the PrefScore constructor).
//   When the library refuses a log with an entry of 0 in a side column, the answer also carries
//   "zero_tricks_no_supa": the json and mini (or error) of the same log run through the library
//   with its follower told to write no supa for no trick (PrefPaper.processAsFollower and
//   ...Repealed, the fall still counted): the one known difference of ratings/algorithms/paper/.
//
// Each hand is added with addRefaHand / addPlayedHand, and a hand marked "repealed" is repealed
// with repealHand(its index) straight after it is added, so the first error is the first bad hand
// in the log's order. The library recomputes the whole paper on every repeal, so the paper is the
// same as repealing them all at the end.
"use strict";
const fs = require("fs");
const path = require("path");

const modules = path.resolve(process.argv[2]);
const scoreDir = path.join(modules, "preferans-score-js");
const PrefScore = require(scoreDir).default;
// The paper-js that score-js itself loads (npm may nest it or hoist it beside score-js).
const PrefPaper = require(
  require.resolve("preferans-paper-js", { paths: [scoreDir] }),
).default;

function playerOf(seat) {
  return "p" + seat;
}

function run(log) {
  const refas = log.refas === null || log.refas === undefined ? Infinity : log.refas;
  let index = 0;
  try {
    const score = new PrefScore("u1", "u2", "u3", log.bula, refas);
    for (const hand of log.hands) {
      index += 1;
      if (hand.refa) {
        score.addRefaHand();
      } else {
        const main = { designation: playerOf(hand.declarer.seat), failed: hand.declarer.failed };
        if (hand.declarer.tricks !== undefined) main.tricks = hand.declarer.tricks;
        const [left, right] = hand.followers.map((f) => ({
          designation: playerOf(f.seat),
          followed: f.followed,
          tricks: f.tricks,
          failed: f.failed,
        }));
        score.addPlayedHand(hand.value, main, left, right);
      }
      if (hand.repealed) score.repealHand(index);
    }
    return { json: score.json, mini: score.mini };
  } catch (error) {
    return { error: `hand ${index}: ${error.message}` };
  }
}

// The known difference: a follower who followed and took no trick writes no supa (the library
// throws on the entry of 0), and a fall still adds the value to their bula.
function runWithoutZeroSupa(log) {
  const paper = PrefPaper.prototype;
  const asFollower = paper.processAsFollower;
  const asFollowerRepealed = paper.processAsFollowerRepealed;
  paper.processAsFollower = function (value, designation, tricks, failed, main) {
    if (tricks !== 0) return asFollower.apply(this, arguments);
    if (failed) this._middle.addValue(value);
    return this;
  };
  paper.processAsFollowerRepealed = function (value, designation, tricks, failed, main) {
    if (tricks !== 0) return asFollowerRepealed.apply(this, arguments);
    if (failed) this._middle.addValueRepealed(value);
    return this;
  };
  try {
    return run(log);
  } finally {
    paper.processAsFollower = asFollower;
    paper.processAsFollowerRepealed = asFollowerRepealed;
  }
}

const logs = JSON.parse(fs.readFileSync(0, "utf8"));
const out = logs.map((log) => {
  const answer = run(log);
  if (answer.error && answer.error.includes("Value is not valid: 0.")) {
    answer.zero_tricks_no_supa = runWithoutZeroSupa(log);
  }
  return answer;
});
process.stdout.write(JSON.stringify(out));
