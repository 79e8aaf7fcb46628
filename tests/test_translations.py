"""The translation catalogs: every language in LANGUAGES has one, complete and compiled.

The .mo files are committed (CI and a fresh machine have no gettext tools), so a .po edited
without running ``compilemessages`` would ship stale translations; these tests catch that by
reading the .mo the way Django does (Python's gettext) and comparing it with the .po.
"""

from __future__ import annotations

import gettext
import re
from pathlib import Path

import polib
import pytest
from django.apps import apps
from django.conf import settings
from django.utils import translation
from django.utils.functional import Promise

LOCALES = [translation.to_locale(code) for code, _name in settings.LANGUAGES if code != "en"]
CATALOG_DIR = Path(settings.LOCALE_PATHS[0])
# "%(name)s" / "%(n)d" for Python's % formatting, "{sum}" for the strings static/paper.js fills.
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|\{\w+\}")


def catalog(locale: str) -> polib.POFile:
    return polib.pofile(str(CATALOG_DIR / locale / "LC_MESSAGES" / "django.po"))


def compiled(locale: str) -> gettext.GNUTranslations:
    with open(CATALOG_DIR / locale / "LC_MESSAGES" / "django.mo", "rb") as mo:
        return gettext.GNUTranslations(mo)


def placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


def test_it_has_serbian_latin_and_russian():
    assert LOCALES == ["sr_Latn", "ru"]


@pytest.mark.parametrize("locale", LOCALES)
def test_every_entry_is_translated(locale):
    po = catalog(locale)
    assert len(po) > 100, "the catalog looks empty: run makemessages"
    assert not po.metadata_is_fuzzy
    assert [e.msgid for e in po.untranslated_entries()] == []
    assert [e.msgid for e in po.fuzzy_entries()] == []
    for entry in po.translated_entries():
        forms = entry.msgstr_plural.values() if entry.msgid_plural else [entry.msgstr]
        assert all(form.strip() for form in forms), entry.msgid


@pytest.mark.parametrize("locale", LOCALES)
def test_translations_keep_every_placeholder(locale):
    for entry in catalog(locale).translated_entries():
        if entry.msgid_plural:
            wanted = placeholders(entry.msgid) | placeholders(entry.msgid_plural)
            for form in entry.msgstr_plural.values():
                assert placeholders(form) == wanted, (entry.msgid, form)
        else:
            assert placeholders(entry.msgstr) == placeholders(entry.msgid), entry.msgid


@pytest.mark.parametrize("locale", LOCALES)
def test_the_compiled_catalog_matches_the_po_file(locale):
    """What gettext loads from the .mo is exactly the .po: recompile after editing a .po."""
    po, mo = catalog(locale), compiled(locale)
    checked = 0
    for entry in po.translated_entries():
        if entry.msgctxt:
            assert mo.pgettext(entry.msgctxt, entry.msgid) == entry.msgstr, entry.msgid
        elif entry.msgid_plural:
            # One count per plural form the language's rule reaches with whole numbers.
            counts = {}
            for n in range(200):
                counts.setdefault(mo.plural(n), n)
            for index, n in counts.items():
                got = mo.ngettext(entry.msgid, entry.msgid_plural, n)
                assert got == entry.msgstr_plural[index], (entry.msgid, n)
        else:
            assert mo.gettext(entry.msgid) == entry.msgstr, entry.msgid
        checked += 1
    # Nothing in the .mo that the .po no longer has (the empty msgid is the header).
    mo_entries = polib.mofile(str(CATALOG_DIR / locale / "LC_MESSAGES" / "django.mo"))
    assert len([e for e in mo_entries if e.msgid]) == checked


def model_texts() -> set[str]:
    """The club's model texts marked for translation: models' names given in their Meta, field
    labels and choice labels. The admin shows them all (a model's name in the permission list
    too), whether or not a page does."""
    texts = set()
    for model in apps.get_app_config("ratings").get_models():
        meta = model._meta
        texts |= {str(meta.original_attrs[name]) for name in ("verbose_name", "verbose_name_plural")
                  if isinstance(meta.original_attrs.get(name), Promise)}  # fmt: skip
        for field in meta.get_fields():
            if isinstance(getattr(field, "verbose_name", None), Promise):
                texts.add(str(field.verbose_name))
            for _value, label in getattr(field, "flatchoices", None) or ():
                if isinstance(label, Promise):
                    texts.add(str(label))
    return texts


@pytest.mark.parametrize("locale", LOCALES)
def test_every_model_text_is_in_the_catalog(locale):
    """A model text missing from the catalogs shows in English whatever the language (a new model
    since the last makemessages): the catalog test above cannot see what is not in the file."""
    with translation.override("en"):
        texts = model_texts()
    assert len(texts) > 50
    assert sorted(texts - {entry.msgid for entry in catalog(locale)}) == []


@pytest.mark.parametrize(
    ("code", "heading"), [("sr-latn", "Plasman"), ("ru", "Место"), ("en", "Rank")]
)
def test_django_finds_the_catalogs(code, heading):
    with translation.override(code):
        assert translation.gettext("Rank") == heading


# Each count class of the language's plural rule: 1 and 21 (one), 2, 4 and 22 (few), 5, 11, 12,
# 14 and 25 (many; 11-14 never "one" or "few", whatever their last digit).
COUNTS = (1, 2, 4, 5, 11, 12, 14, 21, 22, 25, 101, 111)
# Messages read form by form by a speaker: what each count class must say.
PLURALS = {
    "sr-latn": {
        ("{count} paper waiting to be sent", "{count} papers waiting to be sent"): {
            1: "{count} papir čeka slanje",
            2: "{count} papira čekaju slanje",
            5: "{count} papira čeka slanje",
        },
        ("%(done)s of %(total)s table in", "%(done)s of %(total)s tables in"): {
            1: "uneto %(done)s od %(total)s stola",
            2: "uneto %(done)s od %(total)s stola",
            5: "uneto %(done)s od %(total)s stolova",
        },
        ("%(count)d claim approved.", "%(count)d claims approved."): {
            1: "Odobren je %(count)d zahtev.",
            2: "Odobrena su %(count)d zahteva.",
            5: "Odobreno je %(count)d zahteva.",
        },
        ("The body is over %(limit)s byte.", "The body is over %(limit)s bytes."): {
            1: "Telo zahteva je veće od %(limit)s bajta.",
            2: "Telo zahteva je veće od %(limit)s bajta.",
            5: "Telo zahteva je veće od %(limit)s bajtova.",
        },
    },
    "ru": {
        ("{count} paper waiting to be sent", "{count} papers waiting to be sent"): {
            1: "{count} лист ждёт отправки",
            2: "{count} листа ждут отправки",
            5: "{count} листов ждут отправки",
        },
        ("%(done)s of %(total)s table in", "%(done)s of %(total)s tables in"): {
            1: "введено %(done)s из %(total)s стола",
            2: "введено %(done)s из %(total)s столов",
            5: "введено %(done)s из %(total)s столов",
        },
        ("%(count)d claim approved.", "%(count)d claims approved."): {
            1: "Одобрена %(count)d заявка.",
            2: "Одобрены %(count)d заявки.",
            5: "Одобрено %(count)d заявок.",
        },
        ("The body is over %(limit)s byte.", "The body is over %(limit)s bytes."): {
            1: "Тело запроса превышает %(limit)s байт.",
            2: "Тело запроса превышает %(limit)s байта.",
            5: "Тело запроса превышает %(limit)s байт.",
        },
    },
}


def count_class(count: int) -> int:
    """The count whose form ``count`` takes in Serbian and Russian: 1, 2 or 5."""
    if count % 10 == 1 and count % 100 != 11:
        return 1
    if 2 <= count % 10 <= 4 and not 12 <= count % 100 <= 14:
        return 2
    return 5


@pytest.mark.parametrize("language", sorted(PLURALS))
def test_plural_forms_agree_with_each_count_class(language):
    with translation.override(language):
        for (singular, plural), forms in PLURALS[language].items():
            for count in COUNTS:
                text = translation.ngettext(singular, plural, count)
                assert text == forms[count_class(count)], (language, singular, count)


# The catalogs' plural forms, in the order of their rule (Russian's fourth is for fractions).
FORM_OF_CLASS = {1: 0, 2: 1, 5: 2}


class EveryValue(dict):
    """Whatever a message's placeholders ask for, the count: ``"%(n)d games" % EveryValue(5)``."""

    def __init__(self, count: int):
        super().__init__()
        self.count = count

    def __missing__(self, key):
        return self.count


@pytest.mark.parametrize("locale", LOCALES)
def test_every_plural_message_picks_the_form_of_each_count_class(locale):
    """Each plural message, rendered for a number of each count class (1, 21 one; 2, 22 few; 5,
    11, 25, 111 many), takes that class's form, non-empty, with every placeholder filled."""
    entries = [entry for entry in catalog(locale).translated_entries() if entry.msgid_plural]
    assert len(entries) > 80
    with translation.override(translation.to_language(locale)):
        for entry in entries:
            wanted = placeholders(entry.msgid) | placeholders(entry.msgid_plural)
            for count in (1, 2, 5, 11, 21, 22, 25, 111):
                if entry.msgctxt:
                    text = translation.npgettext(
                        entry.msgctxt, entry.msgid, entry.msgid_plural, count
                    )
                else:
                    text = translation.ngettext(entry.msgid, entry.msgid_plural, count)
                form = entry.msgstr_plural[FORM_OF_CLASS[count_class(count)]]
                assert text == form, (entry.msgid, count)
                assert text.strip() and placeholders(text) == wanted, (entry.msgid, count)
                if "python-format" in entry.flags:
                    text = text % EveryValue(count)
                else:
                    text = text.replace("{count}", str(count))
                assert not placeholders(text), (entry.msgid, count, text)


@pytest.mark.parametrize("locale", LOCALES)
def test_every_plural_message_has_each_form_of_the_language(locale):
    """Serbian has three forms, Russian four (the fourth for fractions): a form left out makes
    gettext fall back to English for the numbers that take it."""
    po = catalog(locale)
    forms = int(re.search(r"nplurals=(\d+)", po.metadata["Plural-Forms"]).group(1))
    assert forms == {"sr_Latn": 3, "ru": 4}[locale]
    short = [
        e.msgid for e in po if e.msgid_plural and sorted(e.msgstr_plural) != list(range(forms))
    ]
    assert short == []


# The nouns the club's messages count. A number right before one of them ("%(n)d players",
# "of %(total)s tables") needs the language's plural forms: the one form a plain gettext has
# agrees with some numbers only ("2 od 4 stolova").
COUNTED = (
    "bytes", "characters", "claims", "days", "deals", "events", "games", "hours", "items",
    "leagues", "members", "minutes", "nights", "pairs", "papers", "players", "points",
    "problems", "refe", "reports", "rounds", "rows", "seats", "seconds", "tables", "tokens",
)  # fmt: skip
COUNT_OF_NOUN = re.compile(
    r"(?:%\(\w+\)[sd]|\{\w+\}) (?:[a-z'-]+ )?(?:" + "|".join(COUNTED) + r")\b"
)
# The word after the placeholder is a verb here, not a counted noun.
NOT_COUNTS = {
    "%(dealer)s deals, %(first)s bids first",
    "Table %(table)d seats %(names)s: enter the paper of those players.",
}


def test_the_count_finder_finds_counts_of_nouns():
    assert COUNT_OF_NOUN.search("A game of this league has exactly %(n)d players, not %(got)d.")
    assert COUNT_OF_NOUN.search("Round %(n)s: %(done)s of %(total)s tables in")
    assert COUNT_OF_NOUN.search("{count} papers waiting to be sent")
    assert not COUNT_OF_NOUN.search("Deals on the paper now: %(count)d, not %(seen)d.")
    assert not COUNT_OF_NOUN.search("%(name)s is a new member")


@pytest.mark.parametrize("locale", LOCALES)
def test_no_message_counts_a_noun_without_plural_forms(locale):
    """A number counting a noun is an ``ngettext`` / ``blocktranslate count`` message; a label
    with a colon ("Claims: 3") is not a count of a noun and needs none."""
    plain = [
        entry.msgid
        for entry in catalog(locale)
        if not entry.msgid_plural
        and COUNT_OF_NOUN.search(entry.msgid)
        and entry.msgid not in NOT_COUNTS
    ]
    assert plain == []


# docs/translations.md's glossary: an English word of the game and the words its translations
# must not use for it (a synonym the glossary settled against, or a wrong gender).
NEVER = {
    "sr_Latn": {
        "staff": r"osoblj|administrator",
        "invited": r"pozvan",
        "paper": r"zapisnik|\blist(a|u|om)?\b",
    },
    "ru": {
        "bula": r"\b[Бб]ул[аыуеой]\b",
        "paper": r"[Пп]ульк|\b[Зз]апис(ь|и|ью)\b|[Зз]аписей",
        "staff": r"администратор|сотрудник",
        "member": r"участник",
        "column": r"столб",
        "invited": r"приглашён",
    },
}


@pytest.mark.parametrize("locale", LOCALES)
def test_the_catalog_keeps_the_glossarys_terms(locale):
    """A message that speaks of the paper, the staff, a member... uses the glossary's word for it,
    never a synonym a reader would take for something else."""
    wrong = []
    for entry in catalog(locale).translated_entries():
        english = f"{entry.msgid} {entry.msgid_plural}".lower()
        forms = entry.msgstr_plural.values() if entry.msgid_plural else [entry.msgstr]
        for word, pattern in NEVER[locale].items():
            if re.search(rf"\b{word}", english) and any(re.search(pattern, f) for f in forms):
                wrong.append((word, entry.msgid))
    assert wrong == []
