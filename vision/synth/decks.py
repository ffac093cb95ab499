"""The card decks the renderer may use, with where the artwork lives and its licence.

The artwork is not ours to commit: Debian installs it (``gnome-cards-data``, ``kdegames-card-data-kf5``).
GNOME decks are for training; KDE decks are held back as *unseen* decks for testing, except those that repeat
a GNOME design (dondorf, paris, ornamental, tigullio), which count as seen.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from engine.errors import CadoganError

GNOME_DIR = "/usr/share/aisleriot/cards"
KDE_DIR = "/usr/share/carddecks"
APT_HINT = "sudo apt-get install -y gnome-cards-data kdegames-card-data-kf5 librsvg2-bin"


class DeckSplit(enum.Enum):
    TRAIN = "train"
    UNSEEN = "unseen"


class DeckSource(enum.Enum):
    # GNOME (aisleriot) decks are one SVG laid out as a 13 x 5 grid; KDE decks name each card by element id.
    GNOME = "gnome"
    KDE = "kde"
    PROCEDURAL = "procedural"  # drawn by vision.synth.procedural from a seed: no artwork file


@dataclass(frozen=True, slots=True)
class Deck:
    name: str
    source: DeckSource
    file: str  # relative to GNOME_DIR or KDE_DIR
    licence: str
    split: DeckSplit
    note: str = ""

    @property
    def path(self) -> str:
        return f"{GNOME_DIR if self.source is DeckSource.GNOME else KDE_DIR}/{self.file}"


_G, _K = DeckSource.GNOME, DeckSource.KDE
_T, _U = DeckSplit.TRAIN, DeckSplit.UNSEEN
# Licences as stated by Debian's copyright files: aisleriot's covers its whole tree (GPL-3+);
# libkdegames names the card decks with their own terms.
_GPL3 = "GPL-3+ (aisleriot, Debian gnome-cards-data)"
_KGPL2 = "GPL-2+ (libkdegames, Debian kdegames-card-data-kf5)"

DECKS: tuple[Deck, ...] = (
    Deck("ancient_french", _G, "ancient_french.svgz", _GPL3, _T),
    Deck("anglo", _G, "anglo.svgz", _GPL3, _T),
    Deck("anglo_bitmap", _G, "anglo_bitmap.svgz", _GPL3, _T),
    Deck("anglo_modern", _G, "anglo_modern.svgz", _GPL3, _T),
    Deck("anglo_modern_4_color", _G, "anglo_modern_4_color.svgz", _GPL3, _T, "four-colour suits"),
    Deck("anglo_poker", _G, "anglo_poker.svgz", _GPL3, _T),
    Deck("atlasnye", _G, "atlasnye.svgz", _GPL3, _T),
    Deck("bellot", _G, "bellot.svgz", _GPL3, _T),
    Deck("berlin", _G, "berlin.svgz", _GPL3, _T),
    Deck("dondorf", _G, "dondorf.svgz", _GPL3, _T),
    Deck("gnomangelo", _G, "gnomangelo.svgz", _GPL3, _T),
    Deck("gnomangelo_bitmap", _G, "gnomangelo_bitmap.svgz", _GPL3, _T),
    Deck("guyenne_classic", _G, "guyenne-classic.svgz", _GPL3, _T),
    Deck("lattmann", _G, "lattmann.svgz", _GPL3, _T),
    Deck("neoclassical", _G, "neoclassical.svgz", _GPL3, _T),
    Deck("neoclassical_4_color", _G, "neoclassical_4_color.svgz", _GPL3, _T, "four-colour suits"),
    Deck("orell", _G, "orell.svgz", _GPL3, _T),
    Deck("paris", _G, "paris.svgz", _GPL3, _T),
    Deck("plastic", _G, "plastic.svgz", _GPL3, _T),
    Deck("rheinland", _G, "rheinland.svgz", _GPL3, _T),
    Deck("simplistic", _G, "simplistic.svgz", _GPL3, _T),
    Deck("slavic_costumes", _G, "slavic_costumes.svgz", _GPL3, _T),
    Deck("tango", _G, "tango.svgz", _GPL3, _T),
    Deck("tango_nuevo", _G, "tango_nuevo.svgz", _GPL3, _T),
    Deck(
        "tarocco",
        _G,
        "tarocco.svgz",
        _GPL3,
        _T,
        "French-suited 52-card pack despite the name; its back renders plain cream (SVG pattern)",
    ),
    Deck("tigullio", _G, "tigullio.svgz", _GPL3, _T),
    Deck("kde_standard", _K, "svg-standard/standard.svgz", _KGPL2, _U),
    Deck("kde_penguins", _K, "svg-penguins/penguins.svgz", "GPL-3+ (Tux notice: Larry Ewing et al.)", _U),
    Deck("kde_jolly_royal", _K, "svg-jolly-royal/jolly-royal.svgz", _KGPL2, _U),
    Deck("kde_nicu_white", _K, "svg-nicu-white/white.svgz", _KGPL2, _U),
    Deck("kde_ancient_egyptians", _K, "svg-ancient-egyptians/Ancient_Egyptians.svgz", _KGPL2, _U),
    # The same designs as GNOME decks: seen in training, so they may not test generalisation.
    Deck("kde_dondorf", _K, "svg-dondorf/dondorf.svgz", _KGPL2, _T, "repeats GNOME dondorf"),
    Deck("kde_paris", _K, "svg-gm-paris/paris.svgz", _KGPL2, _T, "repeats GNOME paris"),
    Deck(
        "kde_nicu_ornamental",
        _K,
        "svg-nicu-ornamental/ornamental.svgz",
        _KGPL2,
        _T,
        "repeats GNOME ornamental",
    ),
    Deck(
        "kde_tigullio_international",
        _K,
        "svg-tigullio-international/tigullio-international.svgz",
        "LGPL-2+ (libkdegames)",
        _T,
        "repeats GNOME tigullio",
    ),
)

# Decks looked at and left out, with the reason (kept for docs/decks.md and for the error message).
EXCLUDED: tuple[tuple[str, str], ...] = (
    ("atlasnye_skat", "32-card skat pack (no 2-6)"),
    ("Атласные", "duplicate of atlasnye"),
    ("swiss-xvii", "not French-suited"),
    ("ornamental", "grid cells carry an opaque background, cards cannot be cut out"),
    ("svg-xskat-german", "German suits"),
    ("svg-xskat-french", "SVG without dimensions; element export fails"),
    ("svg-konqi-modern", "SVG without dimensions; element export fails"),
    ("svg-future", "not a card deck layout (tiles)"),
    ("svg-oxygen, svg-oxygen-white, svg-oxygen-air", "rank printed top-right, not in the standard top-left index"),
)


PROCEDURAL_PREFIX = "procedural_"


def deck_seed(name: str) -> int | None:
    """The seed of a procedural deck's name (``procedural_12`` -> 12), or None for any other name."""
    key = name.strip().lower().replace("-", "_")
    rest = key.removeprefix(PROCEDURAL_PREFIX)
    return int(rest) if rest != key and rest.isdigit() else None


def deck_names(split: DeckSplit | None = None) -> list[str]:
    return [d.name for d in DECKS if split is None or d.split is split]


def find_deck(name: str) -> Deck:
    """The deck called ``name`` (case and ``-``/``_`` insensitive), or the procedural deck ``procedural_<seed>``
    (a training deck); CadoganError listing the known ones."""
    key = name.strip().lower().replace("-", "_")
    if deck_seed(key) is not None:
        return Deck(key, DeckSource.PROCEDURAL, "", "generated from free fonts (see docs/decks.md)", DeckSplit.TRAIN)
    for deck in DECKS:
        if deck.name == key or deck.file.split("/")[-1].removesuffix(".svgz").lower().replace("-", "_") == key:
            return deck
    raise CadoganError(
        f"unknown deck {name!r}; known decks: {', '.join(deck_names())}, or procedural_<seed> (a drawn training deck)"
    )
