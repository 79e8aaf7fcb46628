"""Every deal in the one shape a deal is kept in (``Hand.to_json``).

Before, ``Deal.entered`` held either the phone pad's taps (``{"declarer": 1, "contract": "herc",
...}``) or, for a game posted to the API as its deals, the deal log's hand (``{"value": 8,
"declarer": {"seat": 1, ...}, "followers": [{"followed": ...}]}``). The paper's own module reads
both (:func:`ratings.algorithms.paper.hand_from_stored`) into a ``Hand``, which keeps all either
said (the contract, or the log's value, declarer's tricks and supe), so each paper draws the
same. Backwards, a hand with its contract goes back to the taps and one from a log to the log's
hand, as each was kept.
"""

from django.db import migrations

from ratings.algorithms.paper import Hand, PaperError, hand_from_stored

BATCH = 500


def _converted(apps, convert) -> None:
    Deal = apps.get_model("ratings", "Deal")
    changed = []
    for deal in Deal.objects.order_by("pk").iterator(chunk_size=BATCH):
        try:
            entered = convert(deal.entered)
        except PaperError as error:
            raise ValueError(f"deal {deal.pk} (paper {deal.paper_id}): {error}") from None
        if entered != deal.entered:
            deal.entered = entered
            changed.append(deal)
        if len(changed) >= BATCH:
            Deal.objects.bulk_update(changed, ["entered"])
            changed = []
    Deal.objects.bulk_update(changed, ["entered"])


def one_shape(apps, schema_editor) -> None:
    _converted(apps, lambda entered: hand_from_stored(entered).to_json())


def _as_before(entered) -> dict:
    hand = Hand.from_json(entered)
    if hand.refa:
        return {"refa": True}
    if hand.contract is None:
        logged = hand.log_json()
        logged.pop("repealed")  # the deal's own flag
        return logged
    return {
        "declarer": hand.declarer,
        "contract": hand.contract.name,
        "igra": hand.contract.igra,
        "on_refa": hand.contract.on_refa,
        "kontra": hand.contract.kontra,
        "failed": hand.failed,
        "followers": [
            {"seat": f.seat, "play": f.play, "tricks": f.tricks, "failed": f.failed}
            for f in hand.followers
        ],
    }


def two_shapes(apps, schema_editor) -> None:
    _converted(apps, _as_before)


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0032_night_reminder"),
    ]

    operations = [
        migrations.RunPython(one_shape, two_shapes, elidable=False),
    ]
