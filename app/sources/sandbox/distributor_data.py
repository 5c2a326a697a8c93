"""The sandbox distributors' price lists, generated from the sandbox catalog's OEM numbers.

Three fictional distributors list aftermarket brands' parts for the sandbox vehicles' OEM numbers, each with its own
codes, prices, currency and stock. Every value comes from a CRC of the line's identity (never from a shared random
stream), so a line is the same whoever asks and however far into the list, and `lines()` can yield any number of them
as a stream (a 300,000-line benchmark feed repeats the catalog's numbers in further rounds, with other codes).

Each line keeps what a test needs to know about it and a feed never says: the OEM numbers its OE field really names
(`oems`), and, for a near-miss, the real number its OE field almost names (`near_miss_of`).
"""

from __future__ import annotations

import itertools
import re
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from functools import lru_cache

from app.sources.sandbox.catalog import DEFAULT_SEED, REFERENCE_OEM, sandbox_catalog

# The sandbox's own TRY per unit, the same the TCMB sandbox publishes, so converted prices look like a real day's.
SANDBOX_TRY_PER_UNIT = {"TRY": Decimal(1), "EUR": Decimal("49.5120"), "USD": Decimal("42.4310")}


@dataclass(frozen=True)
class Distributor:
    key: str  # its path prefix on the sandbox server
    name: str
    currency: str
    brands: tuple[str, ...]
    warehouses: tuple[str, ...]
    stock_as_words: bool  # "Var"/"Yok" per warehouse, else a count
    price_factor: float
    api_key: str
    username: str
    password: str
    csv_encoding: str  # "cp1254" or "utf-8-sig"


DISTRIBUTORS = (
    Distributor("anadolu", "Anadolu Oto Parça", "TRY",
                ("BOSCH", "MANN-FILTER", "VALEO", "SKF", "FEBI BILSTEIN", "SACHS", "TRW"),
                ("İstanbul", "Ankara"), True, 1.00, "anadolu-demo-anahtar-1", "anadolu", "anadolu-sifre", "cp1254"),
    Distributor("ege", "Ege Yedek Dağıtım", "EUR",
                ("BOSCH", "MEYLE", "LEMFÖRDER", "FEBI BILSTEIN", "HELLA", "VALEO"),
                ("İzmir", "Manisa", "Denizli"), False, 0.96, "ege-demo-anahtar-2", "ege", "ege-sifre", "utf-8-sig"),
    Distributor("marmara", "Marmara Otomotiv", "USD",
                ("MANN-FILTER", "SKF", "TRW", "HELLA", "SACHS", "MEYLE", "BOSCH"),
                ("Bursa", "Kocaeli"), False, 1.04, "marmara-demo-anahtar-3", "marmara", "marmara-sifre", "cp1254"),
)  # fmt: skip
BY_KEY = {distributor.key: distributor for distributor in DISTRIBUTORS}
ALL_BRANDS = tuple(dict.fromkeys(brand for distributor in DISTRIBUTORS for brand in distributor.brands))
BRAND_PRICE_FACTOR = {"BOSCH": 1.15, "MANN-FILTER": 1.05, "VALEO": 1.0, "SKF": 1.1, "FEBI BILSTEIN": 0.85,
                      "SACHS": 1.08, "TRW": 0.98, "MEYLE": 0.8, "LEMFÖRDER": 1.02, "HELLA": 0.95}  # fmt: skip

# The words a feed writes before a maker's numbers (the maker's own first, then a sibling brand's).
MAKER_WORDS = {
    "Volkswagen": ("VW", "VAG", "VOLKSWAGEN", "AUDI", "SKODA", "SEAT"),
    "Renault": ("RENAULT", "DACIA"),
    "Dacia": ("DACIA", "RENAULT"),
    "Toyota": ("TOYOTA", "LEXUS"),
    "BMW": ("BMW", "MINI"),
    "Fiat": ("FIAT", "ALFA ROMEO"),
    "Ford": ("FORD", "FORD OTOSAN"),
    "Hyundai": ("HYUNDAI", "KIA"),
    "Opel": ("OPEL", "VAUXHALL", "GM"),
    "Peugeot": ("PEUGEOT", "CITROEN", "PSA"),
}
NOTES = ("orijinal no", "ön aks", "arka aks", "2012->", "sol/sağ", "bkz. katalog", "muadil", "takım")

# Shares, per hundred lines, of what a line's OE field holds.
NO_OE_SHARE = 5
NEAR_MISS_SHARE = 6  # after NO_OE_SHARE
INVALID_EAN_SHARE = 3
POPULAR_SHARE = 45  # products most distributors carry
CARRY_POPULAR, CARRY_OTHER = 80, 8  # per hundred, the chance a distributor carries a popular / another product
EMPTY_STOCK_SHARE = 30

_NOT_ALNUM = re.compile(r"[^0-9A-Z]")
_OE_SEPARATORS = re.compile(r"[,/;()]| - ")
_LEADING_WORDS = re.compile(r"^\D*")


def normalised(number: str) -> str:
    """A number as feeds are matched on: upper case, letters and digits only."""
    return _NOT_ALNUM.sub("", number.upper())


def oe_numbers(text: str) -> set[str]:
    """The normalised numbers an OE field names: each piece between separators, maker words and notes left out."""
    pieces = (_LEADING_WORDS.sub("", piece) for piece in _OE_SEPARATORS.split(text))
    return {number for number in map(normalised, pieces) if len(number) >= 5 and any(c.isdigit() for c in number)}


def _hash(*parts: object) -> int:
    return zlib.crc32("/".join(map(str, parts)).encode())


def _salted(identity: str, salt: str) -> int:
    """`_hash(*parts, salt)` for `identity` = the parts joined once: the same value, made faster."""
    return zlib.crc32(f"{identity}/{salt}".encode())


@dataclass(frozen=True, slots=True)
class Product:
    oem: str
    maker: str
    name_tr: str


@dataclass(frozen=True, slots=True)
class DistributorLine:
    code: str
    brand: str
    article: str  # the brand's own part number
    name: str
    price: Decimal
    currency: str
    stock: dict[str, int | str]
    ean: str
    oe_text: str
    oems: tuple[str, ...]  # the OEM numbers the OE field really names (not served)
    near_miss_of: str | None = None  # the real number a near-miss OE field almost names (not served)

    def numbers(self) -> set[str]:
        """Every normalised number a lookup finds the line by: its code, the brand's number, its EAN, its OE field."""
        return {normalised(self.code), normalised(self.article), self.ean, *oe_numbers(self.oe_text)}


@lru_cache(maxsize=2)
def products(seed: int = DEFAULT_SEED) -> tuple[Product, ...]:
    """Each OEM number of the sandbox catalog once, in catalog order, with its maker and a Turkish name."""
    found: dict[str, Product] = {}
    for vehicle in sandbox_catalog(seed).vehicles:
        for schema in vehicle.all_schemas():
            for part in schema.parts:
                if part.oem != REFERENCE_OEM and part.oem not in found:
                    found[part.oem] = Product(part.oem, vehicle.brand, part.name_tr)
    return tuple(found.values())


@lru_cache(maxsize=2)
def _known_numbers(seed: int) -> frozenset[str]:
    return frozenset(normalised(product.oem) for product in products(seed))


def lines(distributor: Distributor, seed: int = DEFAULT_SEED, count: int | None = None) -> Iterator[DistributorLine]:
    """The distributor's list as a stream: one round of the catalog's numbers, or `count` lines in as many rounds."""
    catalog_products = products(seed)
    produced = 0
    for round_number in itertools.count():
        for index, product in enumerate(catalog_products):
            for brand in _brands_carried(distributor, product, round_number):
                if count is not None and produced >= count:
                    return
                yield _line(distributor, product, brand, round_number, produced, index, seed)
                produced += 1
        if count is None or produced == 0:
            return


@lru_cache(maxsize=8)
def default_lines(distributor_key: str, seed: int = DEFAULT_SEED) -> tuple[DistributorLine, ...]:
    """The distributor's whole default list, kept: it is what the API pages through and the feeds serve."""
    return tuple(lines(BY_KEY[distributor_key], seed))


def _brands_carried(distributor: Distributor, product: Product, round_number: int) -> list[str]:
    """The aftermarket brands the distributor lists the product under in this round (often none)."""
    popular = _hash(product.oem, "popular") % 100 < POPULAR_SHARE
    chance = CARRY_POPULAR if popular else CARRY_OTHER
    if _hash(distributor.key, product.oem, round_number, "carry") % 100 >= chance:
        return []
    # The product's brands are the same at every distributor (so they overlap); one it does not sell is swapped.
    first = _hash(product.oem, round_number, "brand") % len(ALL_BRANDS)
    chosen = [ALL_BRANDS[first], ALL_BRANDS[(first + 3) % len(ALL_BRANDS)]]
    carried = [brand for brand in chosen if brand in distributor.brands]
    return carried or [distributor.brands[_hash(distributor.key, product.oem) % len(distributor.brands)]]


def _line(
    distributor: Distributor, product: Product, brand: str, round_number: int, position: int, index: int, seed: int
) -> DistributorLine:
    identity = f"{distributor.key}/{product.oem}/{brand}/{round_number}"
    roll = _salted(identity, "oe") % 100
    near_miss = None
    if roll < NO_OE_SHARE:
        oe_text, oems = "", ()
    elif roll < NO_OE_SHARE + NEAR_MISS_SHARE:
        near_miss = _near_miss(product.oem, _salted(identity, "miss"), _known_numbers(seed))
        oe_text, oems = _oe_text(product.maker, near_miss, None, _salted(identity, "text")), ()
    else:
        every = products(seed)
        other = every[(index + 1 + _salted(identity, "other") % 50) % len(every)]
        second = other.oem if other.maker == product.maker and _salted(identity, "second") % 4 == 0 else None
        oe_text = _oe_text(product.maker, product.oem, second, _salted(identity, "text"))
        oems = (product.oem, second) if second else (product.oem,)
    return DistributorLine(
        code=_own_code(distributor, brand, position),
        brand=brand,
        # A near-miss line is another part (or a typo) to the feed: its own brand number and EAN.
        article=_article(brand, _hash(near_miss or product.oem, brand, round_number, "article")),
        name=product.name_tr,
        price=_price(distributor, product, brand, identity),
        currency=distributor.currency,
        stock=_stock(distributor, identity),
        ean=_ean(
            _hash(near_miss or product.oem, brand, round_number, "ean"),
            _salted(identity, "ean") % 100 < INVALID_EAN_SHARE,
        ),
        oe_text=oe_text,
        oems=oems,
        near_miss_of=product.oem if near_miss else None,
    )


def _own_code(distributor: Distributor, brand: str, position: int) -> str:
    if distributor.key == "anadolu":
        return f"AOP-{100_000 + position:07d}"
    if distributor.key == "ege":
        return f"EY{normalised(brand)[:3]}{position:06d}"
    return f"M{(position * 7919 + 1_000_003) % 10**7:07d}"  # a permutation of 10**7 codes: unique, not in order


def _oe_text(maker: str, number: str, second: str | None, pick: int) -> str:
    """An OE field as feeds write one: maker words, a number in one or more spellings, another number, a note."""
    words = MAKER_WORDS.get(maker, (maker.upper(),))
    word, sibling = words[pick % len(words)], words[(pick // 7 + 1) % len(words)]
    dashed, compact = number.replace(" ", "-"), number.replace(" ", "").replace("-", "")
    note = NOTES[(pick // 13) % len(NOTES)]
    styles = (
        f"{word} {dashed} / {compact}",
        f"{word} {number}",
        f"{compact}",
        f"OE: {number} ({note})",
        f"{word}: {compact}; {sibling} {number}",
        f"{word} {number} - {note}",
    )
    text = styles[pick % len(styles)]
    return f"{text}, {sibling} {second}" if second else text


def _near_miss(number: str, pick: int, known: frozenset[str]) -> str:
    """The number with another suffix letter, a suffix added, or two neighbouring digits swapped: never a real one."""
    for attempt in range(8):
        candidate = _mutated(number, pick + attempt)
        if normalised(candidate) != normalised(number) and normalised(candidate) not in known:
            return candidate
    return number + "X"


def _mutated(number: str, pick: int) -> str:
    letters = "ABCDEFGHJK"
    if number[-1].isalpha() and pick % 2 == 0:
        return number[:-1] + letters[(letters.find(number[-1]) + 1 + pick % 5) % len(letters)]
    if number[-1].isdigit() and pick % 3 == 0 and " " in number:
        return f"{number} {letters[pick % len(letters)]}"
    pairs = [i for i in range(len(number) - 1) if number[i].isdigit() and number[i + 1].isdigit()]
    pairs = [i for i in pairs if number[i] != number[i + 1]]
    if not pairs:
        return number[:-1] + str((int(number[-1]) + 1) % 10) if number[-1].isdigit() else number + "1"
    i = pairs[pick % len(pairs)]
    return number[:i] + number[i + 1] + number[i] + number[i + 2 :]


def _article(brand: str, value: int) -> str:
    digits = f"{value:010d}"
    patterns = {
        "BOSCH": f"0 986 {digits[:3]} {digits[3:6]}",
        "MANN-FILTER": f"W {digits[:3]}/{digits[3:5]}",
        "SKF": f"VKBA {digits[:4]}",
        "TRW": f"GDB{digits[:4]}",
        "MEYLE": f"{digits[:3]} {digits[3:6]} {digits[6:10]}",
        "LEMFÖRDER": f"{digits[:5]} 01",
        "SACHS": f"{digits[:3]} {digits[3:6]}",
        "HELLA": f"1LH {digits[:3]} {digits[3:6]}-{digits[6:9]}",
    }
    return patterns.get(brand, digits[:6])


def _price(distributor: Distributor, product: Product, brand: str, identity: str) -> Decimal:
    base_try = 80 + _hash(product.oem, "price") % 4_000
    jitter = 0.92 + (_salted(identity, "price") % 17) / 100
    in_try = base_try * BRAND_PRICE_FACTOR.get(brand, 1.0) * distributor.price_factor * jitter
    price = Decimal(str(in_try)) / SANDBOX_TRY_PER_UNIT[distributor.currency]
    return price.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def _stock(distributor: Distributor, identity: str) -> dict[str, int | str]:
    stock: dict[str, int | str] = {}
    for warehouse in distributor.warehouses:
        value = _salted(identity, warehouse)
        count = 0 if value % 100 < EMPTY_STOCK_SHARE else 1 + value // 100 % 40
        stock[warehouse] = ("Var" if count else "Yok") if distributor.stock_as_words else count
    return stock


def gtin_check_digit(first_twelve: str) -> str:
    total = sum(int(digit) * (3 if position % 2 else 1) for position, digit in enumerate(first_twelve))
    return str(-total % 10)


def _ean(value: int, wrong_check: bool) -> str:
    prefix = ("869", "400", "405", "301")[value % 4]  # Turkey, Germany, Germany, France
    body = f"{prefix}{value % 10**9:09d}"
    check = gtin_check_digit(body)
    return body + (str((int(check) + 1) % 10) if wrong_check else check)
