#!/usr/bin/env python3
"""Reference vectors for the digital paper, made by running prefko's paper library.

    python3 scripts/vectors/paper_vectors.py                  # rewrite tests/algorithms/vectors/
    python3 scripts/vectors/paper_vectors.py compare          # fresh random logs vs paper.py

The library is installed into a scratch folder outside the project ($VECTORS_SCRATCH, default
/tmp/club-vectors; --scratch overrides): npm ``preferans-score-js@1.5.4``, which pulls in the
``preferans-paper-js@3.1.3`` it depends on. ``paper_driver.js`` beside this script adds each log's
hands to a ``PrefScore`` and prints its ``json`` and ``mini`` (or the error it throws, with the
hand's 1-based number).

The logs are in the input format of ``manage.py paper_from_deals``. ``generate`` (the default)
needs node and npm but not Django, and never imports the project's code, so the vectors are the
library's word alone. ``compare`` draws fresh logs with another seed, runs the library and
``ratings.algorithms.paper`` side by side and reports every disagreement.
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
FIXTURE = REPO / "tests" / "algorithms" / "vectors" / "paper.json.gz"
DEFAULT_SCRATCH = os.environ.get("VECTORS_SCRATCH") or str(
    Path(tempfile.gettempdir()) / "club-vectors"
)
GENERATE_SEED = 20261126
NPM_PACKAGES = {"preferans-score-js": "1.5.4"}
PAPER_JS = "3.1.3"  # what score-js 1.5.4 asks for, exactly

BIDS = (2, 3, 4, 5, 6, 7)  # pik, karo, herc, tref, betl, sans


# The library ------------------------------------------------------------------------------------


class Library:
    """preferans-score-js installed in a scratch folder, run through paper_driver.js."""

    def __init__(self, scratch: Path):
        self.scratch = scratch
        scratch.mkdir(parents=True, exist_ok=True)
        if self._version("preferans-score-js") != NPM_PACKAGES["preferans-score-js"]:
            if not (scratch / "package.json").exists():
                (scratch / "package.json").write_text('{"private": true}\n')
            specs = [f"{name}@{version}" for name, version in NPM_PACKAGES.items()]
            subprocess.run(
                ["npm", "install", "--no-audit", "--no-fund", "--save-exact", *specs],
                cwd=scratch,
                check=True,
                stdout=subprocess.DEVNULL,
            )
        paper = self._version("preferans-paper-js")
        if paper != PAPER_JS:
            raise SystemExit(f"preferans-paper-js: wanted {PAPER_JS}, found {paper}")
        self.versions = {
            "node": _output(["node", "--version"]).strip(),
            "preferans-score-js": self._version("preferans-score-js"),
            "preferans-paper-js": paper,
        }

    def _version(self, name: str) -> str | None:
        for manifest in (
            self.scratch / "node_modules" / name / "package.json",
            self.scratch / "node_modules/preferans-score-js/node_modules" / name / "package.json",
        ):
            if manifest.exists():
                return json.loads(manifest.read_text())["version"]
        return None

    def run(self, logs: list[dict]) -> list[dict]:
        answers = json.loads(
            _output(
                ["node", str(HERE / "paper_driver.js"), str(self.scratch / "node_modules")],
                stdin=json.dumps(logs),
            )
        )
        if len(answers) != len(logs):
            raise SystemExit(f"the driver answered {len(answers)} of {len(logs)} logs")
        return answers


def _output(command: list[str], stdin: str | None = None) -> str:
    done = subprocess.run(command, input=stdin, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stderr}")
    return done.stdout


# Random deal logs -------------------------------------------------------------------------------


class Table:
    """A game in progress, to make logs that look like real ones (refe doubled, bulas moving)."""

    def __init__(self, rng: random.Random, bula: int, refas: int | None, **odds: float):
        self.rng = rng
        self.bula = bula
        self.refas = refas
        self.hands: list[dict] = []
        self.refe = 0
        self.open_refe = [0, 0, 0]
        self.middles = [bula, bula, bula]
        self.odds = {
            "refa": 0.12,
            "fail": 0.2,
            "follower_fail": 0.1,
            "follow": 0.65,
            "invite": 0.08,
            "repeal": 0.05,
            "kontra": 0.08,
            "igra": 0.1,
            "big": 0.05,
        } | odds

    def chance(self, name: str) -> bool:
        return self.rng.random() < self.odds[name]

    def log(self) -> dict:
        return {"bula": self.bula, "refas": self.refas, "hands": self.hands}

    def play(self, count: int, until_over: bool = False) -> Table:
        for _ in range(count):
            if until_over and sum(self.middles) <= 0:
                break
            if self.chance("refa") and (self.refas is None or self.refe < self.refas):
                self.refa()
            else:
                self.hand()
        return self

    def refa(self) -> None:
        self.hands.append(self.rng.choice([{"refa": True}, {"refa": True, "repealed": False}]))
        self.refe += 1
        self.open_refe = [n + 1 for n in self.open_refe]

    def value(self, declarer: int) -> int:
        rng = self.rng
        if self.chance("big"):
            return rng.randrange(2, 400, 2)
        value = 2 * rng.choice(BIDS) + (2 if self.chance("igra") else 0)
        if self.open_refe[declarer - 1]:
            value *= 2
        if self.chance("kontra"):
            value *= 2 ** rng.randint(1, 4)
        return value

    def hand(self, **override: object) -> dict:
        rng = self.rng
        declarer = rng.randint(1, 3)
        others = [seat for seat in (1, 2, 3) if seat != declarer]
        rng.shuffle(others)
        failed = self.chance("fail")
        value = self.value(declarer)
        followers = self.followers(others, failed)
        hand = {
            "value": value,
            "declarer": {"seat": declarer, "failed": failed},
            "followers": followers,
            "repealed": self.chance("repeal"),
        }
        hand.update(override)
        self.hands.append(hand)
        if not hand["repealed"]:
            if self.open_refe[declarer - 1]:
                self.open_refe[declarer - 1] -= 1
            self.middles[declarer - 1] += value if failed else -value
            for follower in followers:
                if follower["followed"] and follower["failed"]:
                    self.middles[follower["seat"] - 1] += value
        return hand

    def followers(self, seats: list[int], declarer_failed: bool) -> list[dict]:
        rng = self.rng
        if self.chance("invite"):
            # The inviting follower writes the defence's tricks; the invited one nothing.
            total = 5 if declarer_failed else rng.randint(1, 4)
            failed = not declarer_failed and total < 4 and self.chance("follower_fail")
            return [
                {"seat": seats[0], "followed": True, "tricks": total, "failed": failed},
                {"seat": seats[1], "followed": False, "tricks": 0, "failed": False},
            ]
        following = [self.chance("follow") for _ in seats]
        if declarer_failed and not any(following):
            following[rng.randint(0, 1)] = True
        if declarer_failed:
            if all(following):
                first = rng.randint(1, 4)
                tricks = [first, 5 - first]
            else:
                tricks = [5, 0] if following[0] else [0, 5]
        elif all(following):
            first = rng.randint(1, 3)
            tricks = [first, rng.randint(1, 4 - first)]
        else:
            tricks = [rng.randint(1, 4) if f else 0 for f in following]
        out = []
        for seat, followed, took in zip(seats, following, tricks, strict=True):
            failed = followed and not declarer_failed and self.chance("follower_fail")
            out.append({"seat": seat, "followed": followed, "tricks": took, "failed": failed})
        return out


def bula_choice(rng: random.Random) -> int:
    return rng.choice([2, 4, 6, 10, 10, 20, 20, 30, 30, 30, 40, 50, 60, 80, 100, 200])


def refas_choice(rng: random.Random) -> int | None:
    return rng.choice([None, None, None, 0, 1, 2, 2, 3, 4, 8])


def random_games(rng: random.Random, count: int) -> list[dict]:
    logs = []
    for _ in range(count):
        table = Table(rng, bula_choice(rng), refas_choice(rng))
        logs.append(table.play(rng.randint(0, 60), until_over=rng.random() < 0.7).log())
    return logs


def hats(rng: random.Random, count: int) -> list[dict]:
    """Small bulas and big values: bulas go to zero, below, and back, again and again."""
    logs = []
    for _ in range(count):
        table = Table(
            rng,
            rng.choice([2, 4, 6, 8, 10, 12, 20]),
            refas_choice(rng),
            fail=0.4,
            follower_fail=0.3,
            big=0.15,
            repeal=0.1,
        )
        logs.append(table.play(rng.randint(1, 40)).log())
    return logs


def exact_zero(rng: random.Random, count: int) -> list[dict]:
    """Bulas that land exactly on zero (no number written) and leave it again."""
    logs = []
    for _ in range(count):
        bula = rng.choice([4, 6, 8, 10, 20, 30])
        table = Table(rng, bula, None, refa=0.0, repeal=0.1)
        for _ in range(rng.randint(1, 12)):
            seat = rng.randint(1, 3)
            others = [s for s in (1, 2, 3) if s != seat]
            rest = table.middles[seat - 1]
            if rest > 0 and rng.random() < 0.6:
                value, failed = rest, False
            else:
                value, failed = rng.randrange(2, 2 * bula + 2, 2), rng.random() < 0.4
            table.hand(
                value=value,
                declarer={"seat": seat, "failed": failed},
                followers=table.followers(others, failed),
            )
            # keep the table's own count right when the override changed the hand
            table.middles = _replay_middles(table.log())
        logs.append(table.log())
    return logs


def _replay_middles(log: dict) -> list[int]:
    middles = [log["bula"]] * 3
    for hand in log["hands"]:
        if hand.get("refa") or hand.get("repealed"):
            continue
        value, seat = hand["value"], hand["declarer"]["seat"]
        middles[seat - 1] += value if hand["declarer"]["failed"] else -value
        for f in hand["followers"]:
            if f["followed"] and f["failed"]:
                middles[f["seat"] - 1] += value
    return middles


def refe(rng: random.Random, count: int) -> list[dict]:
    """Many refe, with and without a cap; some logs write one refa too many (refused)."""
    logs = []
    for _ in range(count):
        table = Table(rng, bula_choice(rng), refas_choice(rng), refa=0.45, repeal=0.1)
        table.play(rng.randint(1, 40))
        if table.refas is not None and rng.random() < 0.2:
            while table.refe <= table.refas:
                table.refa()
            table.play(rng.randint(0, 5))
        logs.append(table.log())
    return logs


def repeals(rng: random.Random, count: int) -> list[dict]:
    logs = []
    for _ in range(count):
        table = Table(rng, bula_choice(rng), refas_choice(rng), repeal=0.35, refa=0.2)
        logs.append(table.play(rng.randint(1, 40)).log())
    return logs


def invitations_and_kontra(rng: random.Random, count: int) -> list[dict]:
    logs = []
    for _ in range(count):
        table = Table(rng, bula_choice(rng), refas_choice(rng), invite=0.4, kontra=0.4, igra=0.3)
        logs.append(table.play(rng.randint(1, 40)).log())
    return logs


def followers_who_passed_with_tricks(rng: random.Random, count: int) -> list[dict]:
    """A follower marked as not following but given tricks: counted in the checks, not written."""
    logs = []
    for _ in range(count):
        table = Table(rng, bula_choice(rng), refas_choice(rng))
        table.play(rng.randint(0, 10))
        hand = table.hand()
        for follower in hand["followers"]:
            if not follower["followed"] and rng.random() < 0.7:
                follower["failed"] = rng.random() < 0.3 and not hand["declarer"]["failed"]
        table.play(rng.randint(0, 10))
        logs.append(table.log())
    return logs


def zero_tricks(rng: random.Random, count: int) -> list[dict]:
    """The known difference: a follower who followed and took no trick (the library throws)."""
    logs = []
    for _ in range(count):
        table = Table(rng, bula_choice(rng), refas_choice(rng), repeal=0.1)
        table.play(rng.randint(0, 15))
        for _ in range(rng.randint(1, 3)):
            hand = table.hand()
            followers = hand["followers"]
            if hand["declarer"]["failed"]:
                followers[0].update(followed=True, tricks=0, failed=False)
                followers[1].update(followed=True, tricks=5, failed=False)
            else:
                followers[0].update(followed=True, tricks=0, failed=rng.random() < 0.5)
                if followers[1]["tricks"] >= 5:
                    followers[1]["tricks"] = 4
            table.middles = _replay_middles(table.log())
            table.play(rng.randint(0, 5))
        logs.append(table.log())
    return logs


BREAKERS = (
    "made_five_tricks",
    "failed_not_five",
    "follower_fails_too",
    "declarer_too_many_tricks",
    "refa_repealed",
    "refa_over_cap",
    "odd_value",
)
# Seats the library finds wrong only when it plays the hand (a designation that is not the
# paper's), like an odd value: found while reading the log would name a later hand than it does.
# Only seats it reads: the declarer's and a follower's who followed (one who did not is never
# looked at, so the library takes any seat there, where the port refuses it).
SEAT_BREAKERS = ("seat_twice", "seat_out_of_range")


def refused(rng: random.Random, count: int) -> list[dict]:
    """Logs with one hand the library refuses, anywhere in the game."""
    logs = []
    for index in range(count):
        table = Table(rng, bula_choice(rng), refas_choice(rng))
        table.play(rng.randint(0, 15))
        break_hand(table, BREAKERS[index % len(BREAKERS)])
        table.play(rng.randint(0, 5))
        logs.append(table.log())
    return logs


def two_rules(rng: random.Random, count: int) -> list[dict]:
    """Logs breaking rules in two hands, every kind first and second: the library, taking the
    hands one by one, refuses the first (the issue's example first: a cap of 0, a refa in hand 1
    and a value of 11 in hand 2 is refused for hand 1)."""
    logs = [
        {
            "bula": 30,
            "refas": 0,
            "hands": [
                {"refa": True},
                {
                    "value": 11,
                    "declarer": {"seat": 1, "failed": False},
                    "followers": [
                        {"seat": 2, "followed": False, "tricks": 0, "failed": False},
                        {"seat": 3, "followed": False, "tricks": 0, "failed": False},
                    ],
                },
            ],
        }
    ]
    kinds = BREAKERS + SEAT_BREAKERS
    for index in range(count - 1):
        table = Table(rng, bula_choice(rng), refas_choice(rng))
        table.play(rng.randint(0, 8))
        break_hand(table, kinds[index % len(kinds)])
        table.play(rng.randint(0, 4))
        break_hand(table, kinds[index // len(kinds) % len(kinds)])
        table.play(rng.randint(0, 3))
        logs.append(table.log())
    return logs


def break_hand(table: Table, breaker: str) -> None:
    """Add a hand to ``table`` that breaks the rule ``breaker`` names."""
    rng = table.rng
    if breaker == "refa_repealed":
        table.hands.append({"refa": True, "repealed": True})
        return
    if breaker == "refa_over_cap":
        if table.refas is None or table.refas > table.refe:  # a cap already passed stays
            table.refas = table.refe
        table.hands.append({"refa": True})
        return
    hand = table.hand()
    first, second = hand["followers"]
    if breaker == "made_five_tricks":
        hand["declarer"]["failed"] = False
        first.update(tricks=rng.randint(1, 5), followed=True)
        second.update(tricks=rng.randint(5 - first["tricks"], 6), followed=True)
    elif breaker == "failed_not_five":
        hand["declarer"]["failed"] = True
        first.update(tricks=rng.randint(1, 4), followed=True, failed=False)
        second.update(
            tricks=rng.choice([5 - first["tricks"] - 1, 5 - first["tricks"] + 1]) or 1,
            followed=True,
            failed=False,
        )
    elif breaker == "follower_fails_too":
        hand["declarer"]["failed"] = True
        first.update(tricks=2, followed=True, failed=True)
        second.update(tricks=3, followed=rng.random() < 0.5, failed=rng.random() < 0.5)
    elif breaker == "declarer_too_many_tricks":
        hand["declarer"] = {
            **hand["declarer"],
            "failed": True,
            "tricks": rng.randint(6, 10),
        }
        first.update(tricks=2, followed=True, failed=False)
        second.update(tricks=3, followed=True, failed=False)
    elif breaker == "odd_value":
        hand["value"] = rng.randrange(1, 41, 2)
    elif breaker == "seat_twice":
        follower = rng.choice([first, second])
        follower.update(
            seat=hand["declarer"]["seat"], followed=True, tricks=follower["tricks"] or 1
        )
    elif breaker == "seat_out_of_range":
        hand["declarer"]["seat"] = rng.choice([0, 4])


def strange_values(rng: random.Random, count: int) -> list[dict]:
    """Values of 0 and below, and tricks below 0: nonsense at a table, but what the library does
    with them is what the port does (accepted where no supa of 0 or below is written)."""
    logs = []
    for _ in range(count):
        hands = []
        for _ in range(rng.randint(1, 8)):
            if rng.random() < 0.1:
                hands.append({"refa": True})
                continue
            declarer = rng.randint(1, 3)
            failed = rng.random() < 0.3
            first = rng.randint(-2, 5)
            second = 5 - first if failed else rng.randint(-2, 4 - first)
            seats = [seat for seat in (1, 2, 3) if seat != declarer]
            hands.append(
                {
                    "value": rng.choice([0, -2, -4, -10, 2, 4, 6]),
                    "declarer": {"seat": declarer, "failed": failed},
                    "followers": [
                        {
                            "seat": seat,
                            "followed": rng.random() < 0.4,
                            "tricks": tricks,
                            "failed": not failed and rng.random() < 0.2,
                        }
                        for seat, tricks in zip(seats, (first, second), strict=True)
                    ],
                    "repealed": rng.random() < 0.2,
                }
            )
        logs.append({"bula": rng.choice([2, 4, 10]), "refas": None, "hands": hands})
    return logs


def edge_cases() -> list[dict]:
    def played(value, seat, failed, followers, repealed=False):
        if not followers:  # nobody followed
            followers = [(s, False, 0, False) for s in (1, 2, 3) if s != seat]
        return {
            "value": value,
            "declarer": {"seat": seat, "failed": failed},
            "followers": [
                {"seat": s, "followed": fw, "tricks": t, "failed": fl} for s, fw, t, fl in followers
            ],
            "repealed": repealed,
        }

    return [
        {"bula": 30, "refas": None, "hands": []},
        {"bula": 2, "refas": 0, "hands": []},
        # the example
        {
            "bula": 30,
            "refas": 2,
            "hands": [
                {"refa": True},
                played(4, 1, False, [(2, True, 2, False), (3, False, 0, False)]),
            ],
        },
        # exactly to zero, then below, then back
        {
            "bula": 10,
            "refas": None,
            "hands": [
                played(10, 1, False, []),
                played(4, 1, False, []),
                played(8, 1, True, [(2, True, 5, False), (3, False, 0, False)]),
                played(2, 1, True, [(2, True, 2, False), (3, True, 3, False)]),
            ],
        },
        # a hat drawn early by the library's rule (30 -> 10 with a value of 20)
        {"bula": 30, "refas": None, "hands": [played(20, 2, False, [])]},
        # a repealed hand that would have ended the bula
        {"bula": 10, "refas": None, "hands": [played(10, 3, False, [], repealed=True)]},
        # refe: cap of one, played made and failed
        {
            "bula": 20,
            "refas": 1,
            "hands": [
                {"refa": True},
                played(8, 1, True, [(2, True, 5, False), (3, False, 0, False)]),
                played(8, 2, False, []),
            ],
        },
        {"bula": 20, "refas": 0, "hands": [{"refa": True}]},
        {"bula": 20, "refas": None, "hands": [{"refa": True, "repealed": True}]},
        # both followers fail a made contract
        {
            "bula": 20,
            "refas": None,
            "hands": [played(6, 2, False, [(1, True, 1, True), (3, True, 1, True)])],
        },
        # a bula that is not valid
        {"bula": 0, "refas": None, "hands": []},
        {"bula": 31, "refas": None, "hands": []},
    ]


def logs_for_vectors(rng: random.Random) -> dict[str, list[dict]]:
    return {
        "edge_cases": edge_cases(),
        "random_games": random_games(rng, 2500),
        "hats": hats(rng, 1500),
        "exact_zero": exact_zero(rng, 500),
        "refe": refe(rng, 800),
        "repeals": repeals(rng, 800),
        "invitations_and_kontra": invitations_and_kontra(rng, 500),
        "followers_who_passed_with_tricks": followers_who_passed_with_tricks(rng, 300),
        "zero_tricks": zero_tricks(rng, 400),
        "refused": refused(rng, 700),
        "strange_values": strange_values(rng, 400),
        "two_rules": two_rules(rng, 600),
    }


# Writing and comparing --------------------------------------------------------------------------


def generate(library: Library, seed: int) -> None:
    rng = random.Random(seed)
    groups = logs_for_vectors(rng)
    names = list(groups)
    answers = library.run([log for name in names for log in groups[name]])
    out: dict[str, list] = {}
    start = 0
    for name in names:
        logs = groups[name]
        out[name] = [
            list(pair) for pair in zip(logs, answers[start : start + len(logs)], strict=True)
        ]
        start += len(logs)
    document = {
        "source": "npm preferans-score-js 1.5.4 (preferans-paper-js 3.1.3): new PrefScore(u1, "
        "u2, u3, bula, refas ?? Infinity), addRefaHand() / addPlayedHand(value, main, left, "
        "right), repealHand(n) straight after a repealed hand; its json and mini, or its error",
        "versions": library.versions,
        "generated_by": f"python3 scripts/vectors/paper_vectors.py generate --seed {seed}",
        "fields": ["log", "answer"],
        "groups": out,
    }
    text = json.dumps(document, separators=(",", ":"), allow_nan=False) + "\n"
    buffer = io.BytesIO()
    # mtime=0 and no file name: the same vectors always give the same bytes.
    with gzip.GzipFile(fileobj=buffer, mode="wb", mtime=0, filename="") as stream:
        stream.write(text.encode())
    FIXTURE.parent.mkdir(parents=True, exist_ok=True)
    FIXTURE.write_bytes(buffer.getvalue())
    counts = ", ".join(f"{name} {len(rows)}" for name, rows in out.items())
    errors = sum(1 for rows in out.values() for _, answer in rows if "error" in answer)
    print(
        f"{FIXTURE.relative_to(REPO)}: {sum(len(r) for r in out.values())} logs ({counts}); "
        f"{errors} refused; {FIXTURE.stat().st_size} bytes"
    )


def expected_result(answer: dict) -> dict:
    """The library's answer in the result format of ``manage.py paper_from_deals`` (no finals)."""
    if "error" in answer and "zero_tricks_no_supa" in answer:
        answer = answer["zero_tricks_no_supa"]
    if "error" in answer:
        return {"error": answer["error"]}
    seats = []
    for seat in (1, 2, 3):
        key = f"p{seat}"
        paper = answer["json"][key]["paper"]
        mini = answer["mini"][key]["paper"]
        seats.append(
            {
                "seat": seat,
                "left": mini["left"],
                "middle": mini["middle"],
                "right": mini["right"],
                "paper": {
                    "left": paper["left"],
                    "middle": paper["middle"],
                    "right": paper["right"],
                },
            }
        )
    return {"seats": seats}


def agrees(ours: dict, answer: dict) -> bool:
    """Our result against the library's answer: the same paper, or both refuse the same hand."""
    expected = expected_result(answer)
    if "error" in expected:
        if "error" not in ours:
            return False
        hand = expected["error"].split(":", 1)[0]
        return hand == "hand 0" or ours["error"].startswith(hand + ":")
    if "error" in ours:
        return False
    stripped = [{k: v for k, v in seat.items() if k != "final"} for seat in ours["seats"]]
    return stripped == expected["seats"]


def compare(library: Library, seed: int, count: int) -> int:
    sys.path.insert(0, str(REPO))
    from ratings.algorithms.paper import paper_results

    rng = random.Random(seed)
    groups = logs_for_vectors(rng)
    scale = count / sum(len(logs) for logs in groups.values())
    logs = [
        log for name, group in groups.items() for log in group[: max(1, int(len(group) * scale))]
    ]
    answers = library.run(logs)
    ours = paper_results(logs)
    bad = [
        (log, mine, answer)
        for log, mine, answer in zip(logs, ours, answers, strict=True)
        if not agrees(mine, answer)
    ]
    print(f"paper: {len(logs)} fresh logs, {len(bad)} disagreements")
    for log, mine, answer in bad[:5]:
        print("   log:", json.dumps(log))
        print("   ours:", json.dumps(mine))
        print("   library:", json.dumps(expected_result(answer)))
    return len(bad)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("mode", nargs="?", choices=["generate", "compare"], default="generate")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--count", type=int, default=5000, help="fresh logs for compare")
    parser.add_argument("--scratch", default=DEFAULT_SCRATCH)
    args = parser.parse_args()
    library = Library(Path(args.scratch))
    if args.mode == "generate":
        generate(library, GENERATE_SEED if args.seed is None else args.seed)
        return 0
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    print(f"seed {seed}")
    return 1 if compare(library, seed, args.count) else 0


if __name__ == "__main__":
    sys.exit(main())
