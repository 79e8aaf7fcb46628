// Runs npm preferans-rating-js on cases read from stdin and prints what it computes.
//
// Usage: node prefko_driver.js <path to preferans-rating-js/lib/pref.rating.js> < cases.json
// Input: a JSON array of [rating1, rating2, rating3, score1, score2, score3, bula].
// Output: a JSON array of [the inputs as received, d12, d13, d23, t12, t13, t23, n12, n13, n23,
// c12, c13, c23, change1, change2, change3].
//
// The changes come from the library's public class. D, T, N and C are module-private, so the
// library's own source is compiled a second time with one line appended that exports its
// _calculateDs / _calculateTs / _calculateNs / _calcC; C is added up exactly as its
// _calculateChanges does, and the driver fails if its changes ever differ from the class's.
"use strict";
const fs = require("fs");
const path = require("path");
const Module = require("module");

const libPath = path.resolve(process.argv[2]);
const PrefRating = require(libPath).default;

const exposed = new Module(libPath, module);
exposed.filename = libPath;
exposed.paths = Module._nodeModulePaths(path.dirname(libPath));
exposed._compile(
  fs.readFileSync(libPath, "utf8") +
    "\nmodule.exports.__terms = { _calculateDs, _calculateTs, _calculateNs, _calcC };\n",
  libPath,
);
const { _calculateDs, _calculateTs, _calculateNs, _calcC } = exposed.exports.__terms;

const cases = JSON.parse(fs.readFileSync(0, "utf8"));
const out = cases.map(([r1, r2, r3, s1, s2, s3, bula]) => {
  const p1 = { username: "p1", rating: r1, score: s1 };
  const p2 = { username: "p2", rating: r2, score: s2 };
  const p3 = { username: "p3", rating: r3, score: s3 };
  const rated = new PrefRating(p1, p2, p3, bula).rating;
  const changes = [rated.p1.change, rated.p2.change, rated.p3.change];

  const D = _calculateDs(p1, p2, p3, bula);
  const T = _calculateTs(p1, p2, p3);
  const N = _calculateNs(p1, p2, p3, bula);
  const C12 = D.a12 + T.a12 + N.a12;
  const C13 = D.a13 + T.a13 + N.a13;
  const C23 = D.a23 + T.a23 + N.a23;
  const again = [_calcC(C12, C13), _calcC(-C12, C23), _calcC(-C13, -C23)];
  if (again.some((c, i) => c !== changes[i])) {
    throw new Error(`terms do not reproduce the changes for ${JSON.stringify([r1, r2, r3, s1, s2, s3, bula])}`);
  }
  return [r1, r2, r3, s1, s2, s3, bula, D.a12, D.a13, D.a23, T.a12, T.a13, T.a23,
    N.a12, N.a13, N.a23, C12, C13, C23, ...changes];
});
process.stdout.write(JSON.stringify(out));
